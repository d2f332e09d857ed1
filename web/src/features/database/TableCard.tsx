// One table of the project on the Database screen: its columns, row count, size, last change and
// access rule; its name opens the row grid.
import { Link } from 'react-router-dom';
import type { DbTable } from '../../api/generated/model';
import { Pill } from '../../components/StatusBadge';
import { formatDate, formatNumber, formatSize } from '../../lib/format';
import { ColumnLine } from './ColumnBadges';
import { accessLabel } from './db';

export function TableCard({ table }: { table: DbTable }) {
  const headingId = `table-${table.name}`;
  return (
    <li className="card table-tile" aria-labelledby={headingId}>
      <div className="table-tile-head">
        <h2 id={headingId} className="mono">
          <Link to={encodeURIComponent(table.name)}>{table.name}</Link>
        </h2>
        <Pill tone={table.access === 'none' ? 'gray' : 'green'}>{accessLabel(table.access)}</Pill>
      </div>
      <ul className="column-list" aria-label={`Columns of ${table.name}`}>
        {table.columns.map((c) => (
          <li key={c.name}>
            <ColumnLine column={c} />
          </li>
        ))}
      </ul>
      <dl className="tile-stats">
        <div>
          <dt>Rows</dt>
          <dd>
            {table.row_count_estimated ? '≈ ' : ''}
            {formatNumber(table.row_count)}
          </dd>
        </div>
        <div>
          <dt>Size</dt>
          <dd>{formatSize(table.size_bytes)}</dd>
        </div>
        <div>
          <dt>Modified</dt>
          <dd>{formatDate(table.last_modified)}</dd>
        </div>
      </dl>
    </li>
  );
}
