// One table of the project: its rows (paged, sortable, add/edit/delete), its app access rule, its
// columns (add, rename, drop) and dropping it. The table's description comes from the same list the
// Database screen reads, so every change here refreshes both.
import { Link, useParams } from 'react-router-dom';
import { useListDbTables } from '../../api/generated/database/database';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryView } from '../../components/States';
import { formatDate, formatNumber, formatSize } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';
import { useProject } from '../console/ProjectLayout';
import { AccessRulePanel } from './AccessRulePanel';
import { ColumnsPanel } from './ColumnsPanel';
import { DropTablePanel } from './DropTablePanel';
import { RowGrid } from './RowGrid';

export default function TablePage() {
  const { projectId } = useProject();
  const { table: name = '' } = useParams();
  usePageTitle(`${name} · Database`);
  const tables = useListDbTables(projectId, {});
  const back = (
    <Link to=".." relative="path" className="project-back">
      <Icon name="arrowLeft" size={16} /> All tables
    </Link>
  );

  return (
    <div className="console-page">
      <QueryView query={tables} loading="Loading the table..." errorTitle="Could not load the table">
        {(list) => {
          const table = list.tables.find((t) => t.name === name);
          if (!table) {
            return (
              <>
                {back}
                <Empty icon="database" title={`No table named ${name}`}>
                  It may have been dropped.
                </Empty>
              </>
            );
          }
          return (
            <>
              {back}
              <PageHeader
                title={table.name}
                description={
                  <>
                    {table.row_count_estimated ? '≈ ' : ''}
                    {formatNumber(table.row_count)} rows · {formatSize(table.size_bytes)} · modified {formatDate(table.last_modified)}
                  </>
                }
              />
              <RowGrid projectId={projectId} table={table} />
              <AccessRulePanel projectId={projectId} table={table} />
              <ColumnsPanel projectId={projectId} table={table} tables={list.tables} />
              <DropTablePanel projectId={projectId} table={table} />
            </>
          );
        }}
      </QueryView>
    </div>
  );
}
