// The row API's SQL, built from a table's catalog description and a caller's request. Names are
// checked (checkIdentifier) and must be columns of the table; every value travels as a bound text
// parameter cast to the column's type (`$n::text::integer`), so nothing a caller sends is ever SQL
// text and both engines see the same typed statement. Answers are built as JSON by PostgreSQL
// (to_jsonb), so PGlite and PostgreSQL give the same shapes (numbers, timestamps, jsonb).
import { Errors } from '../../platform/errors';
import { checkIdentifier, quoteIdent } from './identifiers';
import type { ColumnInfo, TableInfo } from './catalog';

export const PAGE_SIZE = 100;
/** The rows a write answers with (count covers them all). */
export const MAX_RETURNED_ROWS = 1000;
export const MAX_IN_VALUES = 100;
/**
 * A filter value's text at most (openapi.yaml DbFilter, which also caps like/ilike patterns at 256):
 * the contract checks strings; an object's JSON text and each value of an `in` list are checked here.
 */
export const MAX_FILTER_VALUE_TEXT = 4096;

export const FILTER_OPS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'in', 'is_null'] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

export interface RowFilter {
  column: string;
  op: FilterOp | string;
  value?: unknown;
}

export interface SelectRequest {
  columns?: string[];
  filters?: RowFilter[];
  order?: { column: string; ascending?: boolean }[];
  page?: number;
  count?: boolean;
}

export interface BuiltQuery {
  sql: string;
  params: unknown[];
}

const COMPARISONS: Record<string, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' };
// Aliases start with hb_, which no table or column name may (identifiers.ts): they can't collide.
const T = 'hb_t';

/** A type name PostgreSQL's catalog gave (format_type), usable in a cast; anything else is refused. */
const CASTABLE_TYPE = /^[a-z][a-z0-9_ ]*(\(\d+(,\d+)?\))?(\[\])*$/;

class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** The table's column `name` (400 naming it when the table has none). */
export function columnOf(table: TableInfo, name: unknown, field: string): ColumnInfo {
  if (typeof name !== 'string') throw Errors.validation(`${field} must be a column name`);
  checkIdentifier(name, field);
  const column = table.columns.find((c) => c.name === name);
  if (!column) throw Errors.validation(`${field}: table "${table.name}" has no column "${name}"`);
  return column;
}

function castType(column: ColumnInfo): string {
  if (!CASTABLE_TYPE.test(column.type)) throw Errors.validation(`column "${column.name}" has type ${column.type}, which the row API can't compare`);
  return column.type;
}

const isJsonColumn = (c: ColumnInfo) => c.type === 'jsonb' || c.type === 'json';
const isArrayColumn = (c: ColumnInfo) => c.type.endsWith('[]');

/**
 * Refuses a value the column can't take whatever PostgreSQL would make of it: objects and arrays
 * outside json (and array) columns, and numbers JSON can't carry (1e400 parses as Infinity, which
 * JSON.stringify would silently turn into null).
 */
export function checkValue(column: ColumnInfo, value: unknown, field: string): void {
  if (value !== null && typeof value === 'object' && !isJsonColumn(column) && !(Array.isArray(value) && isArrayColumn(column)))
    throw Errors.validation(`${field}: column "${column.name}" is ${column.type}; send a string, number or boolean, not ${Array.isArray(value) ? 'an array' : 'an object'}`);
  checkFinite(value, field);
}

/** Iterative: a value's depth is bounded at parse time, but this walk needs no bound of its own. */
function checkFinite(value: unknown, field: string): void {
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'number' && !Number.isFinite(v)) throw Errors.validation(`${field} is a number out of range (send it as a string)`);
    // A loop, not push(...values): spreading a 500,000-element array overflows the stack too.
    if (v && typeof v === 'object') for (const child of Object.values(v)) stack.push(child);
  }
}

/** The value's text form for `$n::text::<type>`: JSON text for json columns, else the scalar's text. */
function textOf(column: ColumnInfo, value: unknown, field: string): string {
  checkValue(column, value, field);
  if (isJsonColumn(column) || typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** textOf for a filter: bounded, so a comparison costs about the size of the rows it reads. */
function filterText(column: ColumnInfo, value: unknown, field: string): string {
  const text = textOf(column, value, field);
  if (text.length > MAX_FILTER_VALUE_TEXT) throw Errors.validation(`${field} must be at most ${MAX_FILTER_VALUE_TEXT} characters as text`);
  return text;
}

function condition(table: TableInfo, filter: RowFilter, i: number, params: Params): string {
  const field = `filters/${i}`;
  if (!filter || typeof filter !== 'object') throw Errors.validation(`${field} must be an object`);
  const column = columnOf(table, filter.column, `${field}/column`);
  const ref = `${T}.${quoteIdent(column.name)}`;
  const value = filter.value;
  const valueField = `${field}/value`;
  const op = filter.op;
  if (op in COMPARISONS) {
    if (value === null || value === undefined) throw Errors.validation(`${valueField} is required for ${op} (use is_null for null)`);
    return `${ref} ${COMPARISONS[op]} ${params.add(filterText(column, value, valueField))}::text::${castType(column)}`;
  }
  if (op === 'like' || op === 'ilike') {
    if (typeof value !== 'string') throw Errors.validation(`${valueField} must be a string pattern for ${op}`);
    return `${ref}::text ${op === 'like' ? 'LIKE' : 'ILIKE'} ${params.add(value)}::text`;
  }
  if (op === 'in') {
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_IN_VALUES)
      throw Errors.validation(`${valueField} must be an array of 1 to ${MAX_IN_VALUES} values for in`);
    const texts = value.map((v, j) => {
      if (v === null || v === undefined) throw Errors.validation(`${valueField}/${j} must not be null (use is_null)`);
      return filterText(column, v, `${valueField}/${j}`);
    });
    return `${ref} IN (SELECT hb_e.v::text::${castType(column)} FROM jsonb_array_elements_text(${params.add(JSON.stringify(texts))}::text::jsonb) AS hb_e(v))`;
  }
  if (op === 'is_null') {
    if (typeof value !== 'boolean') throw Errors.validation(`${valueField} must be true (is null) or false (is not null) for is_null`);
    return `${ref} IS ${value ? '' : 'NOT '}NULL`;
  }
  throw Errors.validation(`${field}/op must be one of: ${FILTER_OPS.join(', ')}`);
}

/** ` WHERE a AND b` (or '' without filters). */
function where(table: TableInfo, filters: RowFilter[] | undefined, params: Params): string {
  if (!filters?.length) return '';
  if (filters.length > 20) throw Errors.validation('filters must hold at most 20 conditions');
  return ' WHERE ' + filters.map((f, i) => condition(table, f, i, params)).join(' AND ');
}

function requireFilters(filters: RowFilter[] | undefined, verb: string): RowFilter[] {
  if (!Array.isArray(filters) || filters.length === 0) throw Errors.validation(`filters must hold at least one condition: there is no unfiltered ${verb}`);
  return filters;
}

const target = (schema: string, table: TableInfo) => `${quoteIdent(schema)}.${quoteIdent(table.name)}`;

/** One row: `rows` (jsonb array, ≤ 101 rows: the 101st says there is a next page) and `total` when counted. */
export function buildSelect(schema: string, table: TableInfo, req: SelectRequest): BuiltQuery & { page: number } {
  const params = new Params();
  const page = req.page ?? 1;
  if (!Number.isInteger(page) || page < 1 || page > 1_000_000) throw Errors.validation('page must be an integer from 1 to 1000000');
  const columns = req.columns?.length
    ? [...new Set(req.columns.map((c, i) => columnOf(table, c, `columns/${i}`).name))].map((c) => `${T}.${quoteIdent(c)}`).join(', ')
    : `${T}.*`;
  const filter = where(table, req.filters, params);
  if ((req.order?.length ?? 0) > 5) throw Errors.validation('order must hold at most 5 columns');
  // Without an order, the primary key's: pages of the same table then don't overlap.
  const order = req.order?.length
    ? req.order.map((o, i) => `${T}.${quoteIdent(columnOf(table, o?.column, `order/${i}/column`).name)} ${o.ascending === false ? 'DESC' : 'ASC'}`)
    : table.primaryKey.map((c) => `${T}.${quoteIdent(c)}`);
  const from = `FROM ${target(schema, table)} AS ${T}${filter}`;
  const inner = `SELECT ${columns} ${from}${order.length ? ` ORDER BY ${order.join(', ')}` : ''} LIMIT ${PAGE_SIZE + 1} OFFSET ${(page - 1) * PAGE_SIZE}`;
  const rows = `(SELECT coalesce(jsonb_agg(to_jsonb(hb_q)), '[]'::jsonb) FROM (${inner}) AS hb_q)`;
  const total = req.count ? `, (SELECT count(*)::float8 ${from}) AS total` : '';
  return { sql: `SELECT ${rows} AS rows${total}`, params: params.values, page };
}

/** count (every row written) and rows (the first MAX_RETURNED_ROWS, as written) of a data-modifying statement. */
function written(statement: string): string {
  return `WITH hb_w AS (${statement} RETURNING ${T}.*)
SELECT (SELECT count(*)::float8 FROM hb_w) AS count,
       (SELECT coalesce(jsonb_agg(to_jsonb(hb_x)), '[]'::jsonb) FROM (SELECT * FROM hb_w LIMIT ${MAX_RETURNED_ROWS}) AS hb_x) AS rows`;
}

/** The columns of a values object (insert row, update values), checked. */
function valueColumns(table: TableInfo, values: Record<string, unknown>, field: string): ColumnInfo[] {
  return Object.keys(values).map((key) => {
    const column = columnOf(table, key, `${field}/${key}`);
    checkValue(column, values[key], `${field}/${key}`);
    return column;
  });
}

/**
 * Every row with the same keys; a column left out takes its default. The rows go as one JSON
 * parameter that PostgreSQL turns into the table's row type (jsonb_populate_recordset), so one
 * statement writes them all or none.
 */
export function buildInsert(schema: string, table: TableInfo, rows: Record<string, unknown>[]): BuiltQuery {
  if (!Array.isArray(rows) || rows.length === 0 || rows.length > 1000) throw Errors.validation('rows must hold 1 to 1000 rows');
  rows.forEach((r, i) => {
    if (!r || typeof r !== 'object' || Array.isArray(r)) throw Errors.validation(`rows/${i} must be an object (column name → value)`);
  });
  const keys = Object.keys(rows[0]).sort();
  const columns = valueColumns(table, rows[0], 'rows/0');
  rows.forEach((r, i) => {
    if (i === 0) return;
    const mine = Object.keys(r).sort();
    if (mine.length !== keys.length || mine.some((k, j) => k !== keys[j]))
      throw Errors.validation(`rows/${i} must have the same columns as rows/0 (${keys.join(', ') || 'none'}); got ${mine.join(', ') || 'none'}`);
    valueColumns(table, r, `rows/${i}`);
  });
  const into = `${target(schema, table)} AS ${T}`;
  const params = new Params();
  const json = `${params.add(JSON.stringify(rows))}::text::jsonb`;
  if (columns.length === 0) return { sql: written(`INSERT INTO ${into} SELECT FROM jsonb_array_elements(${json})`), params: params.values };
  const list = columns.map((c) => quoteIdent(c.name)).join(', ');
  return {
    sql: written(`INSERT INTO ${into} (${list}) SELECT ${list} FROM jsonb_populate_recordset(NULL::${target(schema, table)}, ${json})`),
    params: params.values,
  };
}

export function buildUpdate(schema: string, table: TableInfo, filters: RowFilter[] | undefined, values: Record<string, unknown>): BuiltQuery {
  requireFilters(filters, 'update');
  if (!values || typeof values !== 'object' || Array.isArray(values) || Object.keys(values).length === 0)
    throw Errors.validation('values must name at least one column (column name → new value)');
  const columns = valueColumns(table, values, 'values');
  const params = new Params();
  const json = `${params.add(JSON.stringify(values))}::text::jsonb`;
  const set = columns.map((c) => `${quoteIdent(c.name)} = hb_v.${quoteIdent(c.name)}`).join(', ');
  const filter = where(table, filters, params);
  return {
    sql: written(`UPDATE ${target(schema, table)} AS ${T} SET ${set} FROM jsonb_populate_record(NULL::${target(schema, table)}, ${json}) AS hb_v${filter}`),
    params: params.values,
  };
}

export function buildDelete(schema: string, table: TableInfo, filters: RowFilter[] | undefined): BuiltQuery {
  requireFilters(filters, 'delete');
  const params = new Params();
  const filter = where(table, filters, params);
  return { sql: written(`DELETE FROM ${target(schema, table)} AS ${T}${filter}`), params: params.values };
}
