// The console's SQL box: one read-only query of the developer's, as the project's owner role, in
// a read-only transaction with the statement timeout. The text is only ever the body of
// `DECLARE … CURSOR FOR`, whose grammar takes a query and nothing else, sent over the extended
// protocol (one statement); the rows come back through FETCH, at most 1,000 of them and 10 MB.
// The same on both engines: on embedded PGlite the statement timeout is a deadline its host
// enforces by restarting the database's worker (db/pglite-host.ts), so a query that runs too
// long ends there too, with PostgreSQL's own error. A developer whose queries keep running out
// is paused for a while (timeout-cooldown.ts).
import { performance } from 'node:perf_hooks';
import { types } from 'node:util';
import type { ArrayResult, TxClient } from '../../db/client';
import { CallerPaused, isConnectionLoss } from '../../db/engine-errors';
import type { components } from '../../generated/openapi';
import { AppError, Errors } from '../../platform/errors';
import type { ProjectRow } from '../projects';
import type { DatabaseContext } from './database.context';
import { isStatementTimeout, type TimeoutCaller } from './timeout-cooldown';

type DbSqlResult = components['schemas']['DbSqlResult'];

export const SQL_BOX_ROWS = 1000;
/** Rows stop here too (as JSON): the answer is for a grid in a browser. */
export const MAX_RESULT_BYTES = 10 * 1024 * 1024;
const FIRST_BATCH = 100;
const CURSOR = 'hb_sql';
const QUERY_KEYWORDS = new Set(['SELECT', 'WITH', 'VALUES', 'TABLE']);
// The same answer on both engines where their drivers differ: intervals as PostgreSQL writes them
// (pg makes objects of them, PGlite keeps the text), 64-bit integers always as text (pg gives
// text, PGlite numbers).
const INTERVAL_OIDS = [1186];
const INT8_OIDS = new Set([20, 1016]);
export const NOT_A_QUERY = 'Only one read-only query (SELECT, WITH, VALUES or TABLE) can run here';

export async function runSql(ctx: DatabaseContext, project: Pick<ProjectRow, 'id'>, text: string, caller: TimeoutCaller): Promise<DbSqlResult> {
  if (text.includes('\u0000')) throw Errors.validation('body/query must not contain NUL characters');
  const query = withoutTrailingSemicolons(text);
  if (!isQuery(query)) throw Errors.validation(NOT_A_QUERY);
  const admittedAt = Date.now();
  await ctx.cooldown.check(caller);
  const timeoutMs = ctx.statementTimeoutMs;
  try {
    return await ctx.session(project, { role: 'owner', readOnly: true, timeoutMs, caller: caller.key, admittedAt }, async (tx) => {
      const started = performance.now();
      await tx.query(`DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${query}`);
      const { fields, rows, complete } = await fetchRows(tx, started + timeoutMs);
      const durationMs = performance.now() - started;
      const typeNames = await typeNamesOf(tx, fields.map((f) => f.dataTypeID));
      return {
        columns: fields.map((f) => ({ name: f.name, type: typeNames.get(f.dataTypeID) ?? String(f.dataTypeID) })),
        rows,
        row_count: rows.length,
        truncated: !complete,
        duration_ms: Math.round(durationMs * 100) / 100,
      };
    });
  } catch (err) {
    if (isStatementTimeout(err)) await ctx.cooldown.record(caller).catch((e: unknown) => ctx.deps.log.warn({ err: e }, 'database: could not record a timeout pause'));
    throw sqlError(err);
  }
}

/** The text without trailing semicolons and white space (a loop: /[\s;]+$/ is quadratic on long runs). */
export function withoutTrailingSemicolons(text: string): string {
  let end = text.length;
  while (end > 0 && /[\s;]/.test(text[end - 1])) end--;
  return text.slice(0, end);
}

/**
 * The cursor's rows, JSON-safe, in batches sized to stay within MAX_RESULT_BYTES (one FETCH of
 * 1,001 rows of a megabyte each would hold a gigabyte in this process); every FETCH after the
 * first gets only what is left of the query's time. `complete`: every row is here.
 */
async function fetchRows(tx: TxClient, deadline: number): Promise<{ fields: ArrayResult['fields']; rows: unknown[][]; complete: boolean }> {
  const rows: unknown[][] = [];
  let fields: ArrayResult['fields'] | undefined;
  let bytes = 0;
  let biggestRow = 1;
  for (let want = FIRST_BATCH; ; ) {
    if (fields) await tx.setStatementTimeout(Math.max(1, Math.floor(deadline - performance.now())));
    const batch = await tx.queryArrays(`FETCH ${want} FROM ${CURSOR}`, [], INTERVAL_OIDS);
    fields ??= batch.fields;
    const int8 = fields.map((f) => INT8_OIDS.has(f.dataTypeID));
    for (const raw of batch.rows) {
      const row = raw.map((v, i) => jsonSafe(int8[i] ? asText(v) : v));
      const size = JSON.stringify(row).length;
      if (rows.length === SQL_BOX_ROWS || bytes + size > MAX_RESULT_BYTES) return { fields, rows, complete: false };
      rows.push(row);
      bytes += size;
      biggestRow = Math.max(biggestRow, size);
    }
    if (batch.rows.length < want) return { fields, rows, complete: true };
    // One row past the limit tells whether there are more.
    want = Math.max(1, Math.min(SQL_BOX_ROWS + 1 - rows.length, Math.floor((MAX_RESULT_BYTES - bytes) / biggestRow)));
  }
}

/** The first word after comments and opening parentheses is one a query starts with. */
export function isQuery(sql: string): boolean {
  let rest = sql;
  for (;;) {
    const before = rest;
    rest = rest.replace(/^\s+/, '').replace(/^--[^\n]*(\n|$)/, '');
    if (rest.startsWith('/*')) rest = afterBlockComment(rest);
    if (rest.startsWith('(')) rest = rest.slice(1);
    if (rest === before) break;
  }
  const word = /^[\p{L}_][\p{L}\p{N}_$]*/u.exec(rest)?.[0];
  return word !== undefined && QUERY_KEYWORDS.has(word.toUpperCase());
}

/** The text after a leading block comment (they nest in PostgreSQL); '' when it never ends. */
function afterBlockComment(sql: string): string {
  let depth = 0;
  for (let i = 0; i < sql.length - 1; i++) {
    const pair = sql.slice(i, i + 2);
    if (pair === '/*') {
      depth++;
      i++;
    } else if (pair === '*/') {
      depth--;
      i++;
      if (depth === 0) return sql.slice(i + 1);
    }
  }
  return '';
}

async function typeNamesOf(tx: Pick<TxClient, 'query'>, oids: number[]): Promise<Map<number, string>> {
  if (!oids.length) return new Map();
  const rows = await tx.query<{ oid: number; name: string }>('SELECT t::int AS oid, pg_catalog.format_type(t, NULL) AS name FROM unnest($1::oid[]) AS t', [[...new Set(oids)]]);
  return new Map(rows.map((r) => [Number(r.oid), r.name === 'timestamp with time zone' ? 'timestamptz' : r.name]));
}

/** Numbers (an int8 or int8[] value) as text, arrays' too. */
function asText(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return Array.isArray(value) ? value.map(asText) : value;
}

/** A value as JSON can carry it: dates as ISO text, 64-bit integers as text, bytes as \x hex. */
export function jsonSafe(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (types.isDate(value)) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (types.isUint8Array(value)) return '\\x' + Buffer.from(value).toString('hex');
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (typeof value === 'object') {
    // pg's interval and range objects know their PostgreSQL text.
    const toPostgres = (value as { toPostgres?: () => unknown }).toPostgres;
    if (typeof toPostgres === 'function') return String(toPostgres.call(value));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonSafe(v)]));
  }
  return value;
}

/**
 * The query's refusal: writing, several statements or a non-query is the caller's request (400);
 * anything else PostgreSQL says about the query (syntax, permission, timeout) is a 422 with its
 * own message, never a 403 or 404 of the platform's.
 */
function sqlError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof CallerPaused) return Errors.databaseCooldown(err.retryAfterSeconds);
  const e = err as { code?: unknown; message?: unknown };
  // A lost connection (PGlite's worker restarted, PostgreSQL gone) is the error handler's 503.
  if (!e || typeof e.code !== 'string' || !/^[0-9A-Z]{5}$/.test(e.code) || isConnectionLoss(e)) throw err;
  const message = typeof e.message === 'string' ? e.message : 'The query failed';
  if (e.code === '25006') return Errors.validation(`${NOT_A_QUERY} (${message})`);
  if (e.code === '42601' && /multiple commands/.test(message)) return Errors.validation(`${NOT_A_QUERY}: send one statement`);
  if (e.code === '0A000' && /data-modifying/.test(message)) return Errors.validation(`${NOT_A_QUERY} (${message})`);
  return Errors.queryFailed(message);
}
