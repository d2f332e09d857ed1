// A table's rows as JSON and back, exactly: read with jsonb_build_object (timestamps to the
// microsecond, numerics and jsonb as PostgreSQL writes them), written with
// jsonb_populate_recordset (each value typed by the table itself; a jsonb column takes the JSON
// value, not its text). What a project archive carries of the platform's tables (each module's
// repository names its own drizzle table, so the table's door stays its repository).
import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import type { TxClient } from './database';

export type JsonRow = Record<string, unknown>;
/** What runs the statements: the export's snapshot or the import's transaction (or the database). */
export type Querier = Pick<TxClient, 'query'>;

const dialect = new PgDialect();
/** Rows per INSERT: one JSON parameter each, bounded so a large table is not one huge statement. */
const ROWS_PER_INSERT = 1000;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The names checked against the table's own columns (a typo fails at once, not as missing data). */
function checked(table: PgTable, columns: readonly string[]): readonly string[] {
  const known = new Set(Object.values(getTableColumns(table)).map((c) => c.name));
  const unknown = columns.filter((c) => !known.has(c));
  if (unknown.length) throw new Error(`${getTableName(table)} has no column ${unknown.join(', ')}`);
  return columns;
}

/** The columns of the rows of `table` that match `where`, each row one JSON object. */
export async function selectJsonRows(q: Querier, table: PgTable, columns: readonly string[], where: SQL, orderBy?: SQL): Promise<JsonRow[]> {
  const pairs = checked(table, columns).map((c) => `'${c}', ${ident(c)}`).join(', ');
  const query = dialect.sqlToQuery(sql`SELECT jsonb_build_object(${sql.raw(pairs)})::text AS j FROM ${table} WHERE ${where}${orderBy ? sql` ORDER BY ${orderBy}` : sql``}`);
  const rows = await q.query<{ j: string }>(query.sql, query.params);
  return rows.map((r) => JSON.parse(r.j) as JsonRow);
}

/**
 * Inserts `rows` into `table`: the given columns that the rows hold (a column no row holds keeps
 * its default: an older archive's rows lack the columns added since).
 */
export async function insertJsonRows(q: Querier, table: PgTable, columns: readonly string[], rows: JsonRow[]): Promise<void> {
  if (!rows.length) return;
  const present = checked(table, columns).filter((c) => rows.some((r) => r[c] !== undefined));
  const cols = present.map(ident).join(', ');
  const name = ident(getTableName(table));
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const part = rows.slice(i, i + ROWS_PER_INSERT).map((r) => Object.fromEntries(present.map((c) => [c, r[c] ?? null])));
    await q.query(`INSERT INTO ${name} (${cols}) SELECT ${cols} FROM jsonb_populate_recordset(NULL::${name}, $1::text::jsonb)`, [JSON.stringify(part)]);
  }
}
