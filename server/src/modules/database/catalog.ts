// What a project's tables look like, read from PostgreSQL's catalog (the one truth: the platform
// keeps no copy of columns). Used by the console's table list and by the row API to type values.
import type { TxClient } from '../../db/client';

export const COLUMN_TYPES = ['text', 'integer', 'bigint', 'numeric', 'boolean', 'timestamptz', 'jsonb', 'uuid'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export interface ColumnInfo {
  name: string;
  /** One of COLUMN_TYPES, or PostgreSQL's name of another type. */
  type: string;
  nullable: boolean;
  primaryKey: boolean;
  unique: boolean;
  identity: boolean;
  /** The default as the developer gave it: `auto_increment`, `now()`, a literal's text; null when none. */
  default: string | null;
  references: { table: string; column: string } | null;
}

export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  primaryKey: string[];
}

type Querier = Pick<TxClient, 'query'>;

const PG_TYPE_NAMES: Record<string, ColumnType> = { 'timestamp with time zone': 'timestamptz' };

const COLUMNS_SQL = `
SELECT c.relname AS table_name, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
       NOT a.attnotnull AS nullable, a.attidentity <> '' AS identity,
       pg_get_expr(d.adbin, d.adrelid) AS default_expr,
       COALESCE((SELECT array_position(k.conkey, a.attnum) FROM pg_constraint k WHERE k.conrelid = c.oid AND k.contype = 'p'), 0) AS pk_position,
       EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conrelid = c.oid AND k.contype = 'u' AND k.conkey = ARRAY[a.attnum]) AS is_unique,
       (SELECT jsonb_build_object('table', fc.relname, 'column', fa.attname)
          FROM pg_constraint k JOIN pg_class fc ON fc.oid = k.confrelid
          JOIN pg_attribute fa ON fa.attrelid = k.confrelid AND fa.attnum = k.confkey[1]
         WHERE k.conrelid = c.oid AND k.contype = 'f' AND k.conkey = ARRAY[a.attnum] LIMIT 1) AS refs
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
 WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND ($2::text IS NULL OR c.relname = $2)
 ORDER BY c.relname, a.attnum`;

interface ColumnRow {
  table_name: string;
  name: string;
  type: string;
  nullable: boolean;
  identity: boolean;
  default_expr: string | null;
  pk_position: number | null;
  is_unique: boolean;
  refs: { table: string; column: string } | null;
}

/** The schema's tables (or the one named), in name order, columns in their order. */
export async function describeTables(q: Querier, schemaName: string, table?: string): Promise<TableInfo[]> {
  const rows = await q.query<ColumnRow>(COLUMNS_SQL, [schemaName, table ?? null]);
  const tables = new Map<string, TableInfo & { pk: [number, string][] }>();
  for (const r of rows) {
    let t = tables.get(r.table_name);
    if (!t) tables.set(r.table_name, (t = { name: r.table_name, columns: [], primaryKey: [], pk: [] }));
    const pkPosition = Number(r.pk_position ?? 0);
    if (pkPosition > 0) t.pk.push([pkPosition, r.name]);
    t.columns.push({
      name: r.name,
      type: PG_TYPE_NAMES[r.type] ?? r.type,
      nullable: r.nullable,
      primaryKey: pkPosition > 0,
      unique: r.is_unique,
      identity: r.identity,
      default: r.identity ? 'auto_increment' : defaultAsGiven(r.default_expr),
      references: typeof r.refs === 'string' ? JSON.parse(r.refs) : r.refs,
    });
  }
  return [...tables.values()].map(({ pk, ...t }) => ({ ...t, primaryKey: pk.sort((a, b) => a[0] - b[0]).map(([, n]) => n) }));
}

export async function describeTable(q: Querier, schemaName: string, table: string): Promise<TableInfo | undefined> {
  return (await describeTables(q, schemaName, table))[0];
}

/** `'it''s'::text` → `it's`; `0` → `0`; `now()` stays; the owner_id default → `end user id`. */
export function defaultAsGiven(expr: string | null): string | null {
  if (expr === null) return null;
  if (expr.includes("current_setting('hostbase.uid'")) return 'end user id';
  const literal = /^'((?:[^']|'')*)'::[\w\s".]+$/s.exec(expr);
  if (literal) return literal[1].replace(/''/g, "'");
  return expr;
}
