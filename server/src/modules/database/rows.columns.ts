// What the row API needs of a table on every call: its columns, their types and its primary key.
// The console's description (catalog.ts describeTable) also reads constraints, defaults and
// foreign keys, which costs several times as much; this reads the same catalog rows for the same
// answer (names and types as describeTable gives them), so the row API never keeps a copy that
// could go stale.
import type { TxClient } from '../../db/client';
import type { TableInfo } from './catalog';

const COLUMNS_SQL = `
SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable,
       coalesce(array_position(k.conkey, a.attnum), 0) AS pk_position
  FROM pg_catalog.pg_class c
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  LEFT JOIN pg_catalog.pg_constraint k ON k.conrelid = c.oid AND k.contype = 'p'
 WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind IN ('r', 'p')
 ORDER BY a.attnum`;

// As catalog.ts names them.
const TYPE_NAMES: Record<string, string> = { 'timestamp with time zone': 'timestamptz' };

/** The table's columns (only what the row API uses: constraints other than the primary key and defaults are left out), or undefined. */
export async function tableColumns(tx: Pick<TxClient, 'query'>, schemaName: string, table: string): Promise<TableInfo | undefined> {
  const rows = await tx.query<{ name: string; type: string; nullable: boolean; pk_position: number | string }>(COLUMNS_SQL, [schemaName, table]);
  if (rows.length === 0) return undefined;
  const pk: [number, string][] = [];
  const columns = rows.map((r) => {
    const position = Number(r.pk_position);
    if (position > 0) pk.push([position, r.name]);
    return { name: r.name, type: TYPE_NAMES[r.type] ?? r.type, nullable: r.nullable, primaryKey: position > 0, unique: false, identity: false, default: null, references: null };
  });
  return { name: table, columns, primaryKey: pk.sort((a, b) => a[0] - b[0]).map(([, name]) => name) };
}
