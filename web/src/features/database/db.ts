// The Database screen's small rules, shared by its parts: query keys, the access rules' texts, the
// name rule (the server's identifiers.ts, so a bad name is caught before the round trip; the
// server's 400 stays the authority), and how a row's values are read from and written to inputs.
import { getConsoleSelectDbRowsQueryKey, getListDbTablesQueryKey } from '../../api/generated/database/database';
import { DbAccess, DbColumnType, type DbColumn, type DbFilter, type DbTable } from '../../api/generated/model';
import { allOf } from '../../api/queryClient';
import { formatNumber } from '../../lib/format';

/** The project's tables (every body they were asked with). */
export const tablesKey = (projectId: string) => allOf(getListDbTablesQueryKey(projectId));
/** Every page and order of one table's rows. */
export const rowsKey = (projectId: string, table: string) => allOf(getConsoleSelectDbRowsQueryKey(projectId, table));

export const ROWS_PAGE_SIZE = 100;

export const COLUMN_TYPES = Object.values(DbColumnType);

export const ACCESS_RULES: { value: DbAccess; label: string; explain: string }[] = [
  { value: DbAccess.none, label: 'No app access', explain: 'Only you, from this console: every app call is refused.' },
  { value: DbAccess.read, label: 'Read with the key', explain: "Any caller with the project's key may read every row; nobody may write." },
  {
    value: DbAccess.signed_in,
    label: 'Signed-in users',
    explain: 'Signed-in end users may read and write every row; the key alone gets nothing.',
  },
  {
    value: DbAccess.owner,
    label: 'Owner only',
    explain: 'Each row belongs to the end user who inserted it (owner_id); users read and write only their own rows.',
  },
];

export function accessLabel(access: DbAccess | string): string {
  return ACCESS_RULES.find((r) => r.value === access)?.label ?? access;
}

const NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u;
const MAX_NAME_BYTES = 63;

/** Why `name` can't be a table or column name (the server's rule), or null. */
export function nameProblem(name: string, what = 'Name'): string | null {
  if (!name) return `${what} is required`;
  if (new TextEncoder().encode(name).length > MAX_NAME_BYTES) return `${what} must be at most ${MAX_NAME_BYTES} bytes (UTF-8)`;
  if (!NAME.test(name)) return `${what} must start with a letter or underscore and hold only letters, digits and underscores`;
  if (/^(pg_|hb_)/i.test(name)) return `${what} must not start with "pg_" or "hb_" (reserved)`;
  return null;
}

/** A value as the grid shows it. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A value as an input holds it ('' for null). */
export function inputText(value: unknown, type: string): string {
  if (value === null || value === undefined) return '';
  if (type === 'jsonb') return JSON.stringify(value, null, 2);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A number JSON carries exactly as typed, else the text (PostgreSQL parses it; bigint and numeric keep every digit). */
function numberOrText(text: string): number | string {
  const n = Number(text);
  return Number.isFinite(n) && String(n) === text ? n : text;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

/** The typed value of an input's text for a column of `type` (text '' stays ''; others need a value). */
export function parseInput(text: string, type: string): Parsed {
  if (type === 'text') return { ok: true, value: text };
  const t = text.trim();
  if (!t) return { ok: false, error: 'Enter a value, or choose NULL' };
  switch (type) {
    case 'integer':
    case 'bigint':
      return /^[-+]?\d+$/.test(t) ? { ok: true, value: numberOrText(t.replace(/^\+/, '')) } : { ok: false, error: 'Enter a whole number' };
    case 'numeric':
      return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t) ? { ok: true, value: numberOrText(t.replace(/^\+/, '')) } : { ok: false, error: 'Enter a number' };
    case 'boolean':
      return t === 'true' || t === 'false' ? { ok: true, value: t === 'true' } : { ok: false, error: 'Choose true or false' };
    case 'jsonb':
      try {
        return { ok: true, value: JSON.parse(t) as unknown };
      } catch {
        return { ok: false, error: 'Enter valid JSON' };
      }
    case 'uuid':
      return UUID.test(t) ? { ok: true, value: t } : { ok: false, error: 'Enter a UUID (8-4-4-4-12 hex digits)' };
    case 'timestamptz':
      return Number.isNaN(Date.parse(t)) ? { ok: false, error: 'Enter a date and time, e.g. 2026-11-23T10:00:00Z' } : { ok: true, value: t };
    default:
      return { ok: true, value: t };
  }
}

/** The filters that pick exactly `row` (its primary key), or null when the table has none. */
export function primaryKeyFilters(table: Pick<DbTable, 'primary_key'>, row: Record<string, unknown>): DbFilter[] | null {
  if (table.primary_key.length === 0) return null;
  return table.primary_key.map((column) => (row[column] === null ? { column, op: 'is_null', value: true } : { column, op: 'eq', value: row[column] }));
}

/** A stable React key for a row: its primary key values, else its position. */
export function rowKey(table: Pick<DbTable, 'primary_key'>, row: Record<string, unknown>, index: number): string {
  return table.primary_key.length ? JSON.stringify(table.primary_key.map((c) => row[c])) : `#${index}`;
}

/** The columns (of other tables) a foreign key may name: primary keys and unique columns. */
export function referenceTargets(tables: DbTable[], except?: string): { table: string; column: string; type: string }[] {
  return tables
    .filter((t) => t.name !== except)
    .flatMap((t) => t.columns.filter((c) => c.primary_key || c.unique).map((c) => ({ table: t.name, column: c.name, type: c.type })));
}

/** The hint under a column's input: its type and default. */
export function columnHint(column: DbColumn): string {
  const parts = [column.type];
  if (column.default) parts.push(`default ${column.default}`);
  if (column.type === 'jsonb') parts.push('JSON text');
  if (column.type === 'timestamptz') parts.push('e.g. 2026-11-23T10:00:00Z');
  return parts.join(' · ');
}

/** "Showing X to Y of N rows" */
export function showingRows(page: number, count: number, total: number | undefined): string {
  const first = count === 0 ? 0 : (page - 1) * ROWS_PAGE_SIZE + 1;
  const last = count === 0 ? 0 : first + count - 1;
  return total === undefined ? `Showing ${first} to ${last}` : `Showing ${first} to ${last} of ${formatNumber(total)} rows`;
}
