// What a column is, in small pills: primary key, unique, not null, and the column a foreign key names.
import type { DbColumn } from '../../api/generated/model';

export function ColumnBadges({ column }: { column: DbColumn }) {
  return (
    <span className="column-badges">
      {column.primary_key && <span className="pill pill-blue" title="Primary key">PK</span>}
      {column.unique && !column.primary_key && <span className="pill pill-gray">unique</span>}
      {!column.nullable && !column.primary_key && <span className="pill pill-gray">not null</span>}
      {column.references && (
        <span className="pill pill-yellow" title={`Foreign key to ${column.references.table}.${column.references.column}`}>
          FK → {column.references.table}.{column.references.column}
        </span>
      )}
    </span>
  );
}

/** One column: its name, its type and its badges. */
export function ColumnLine({ column }: { column: DbColumn }) {
  return (
    <>
      <span className="mono column-name">{column.name}</span> <span className="muted mono column-type">{column.type}</span> <ColumnBadges column={column} />
    </>
  );
}
