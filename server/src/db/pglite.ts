// The Database interface on embedded PGlite, run in a worker thread (pglite-host.ts): a
// statement never blocks the server's thread, and one that runs past its deadline is ended.
// drizzle's PGlite driver is given a client that implements the two calls it makes (query and
// transaction) over the worker, with its own type parsers, so drizzle sees what an in-thread
// PGlite gave it.
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { schema } from './schema';
import { listMigrations, migrationScript, MIGRATIONS_TABLE, runMigrations } from './migrate';
import type { Database, DatabaseOptions, Db, TxClient } from './database';
import { EngineError } from './engine-errors';
import { PgliteHost, type Lease } from './pglite-host';
import type { QueryResult } from './pglite-worker';

// An embedded, single-user database needs little cache: measured on reopen of a data dir,
// process RSS 187 -> 155 MB with these settings instead of PostgreSQL's defaults. shared_buffers
// 16 -> 4 MB: 256 MiB upload peak on a reopened data dir 218 -> 203 MB, fresh 209-240 -> 221-228
// MB (a miss reads the data dir's file through the OS page cache, in process).
const PGLITE_CONF = ['shared_buffers=4MB', 'work_mem=1MB', 'maintenance_work_mem=8MB', 'wal_buffers=256kB'];

/**
 * PGlite's WebAssembly compiled by Liftoff only, never tiered up by TurboFan: the tier-up's
 * compile zones on V8's background threads stay in malloc's thread arenas after they are freed.
 * Measured (bench/upload-memory.ts, 256 MiB upload, PGlite): reopened peak 302 -> 232 MB, fresh
 * 303 -> 243-251 MB; a PGlite open alone 170 -> 130 MB RSS, ready in 0.7 s instead of 2.5-3.9 s, and
 * 3,000 small queries 28 % faster on two cores (no compile competing). Process-wide (the worker
 * threads' isolates share V8's flags), so it is set before the worker compiles PGlite's module. It
 * also applies to hash-wasm's Argon2 (mailbox passwords, compiled later), which runs in Liftoff
 * code too: slower per hash, not measured here.
 */
const PGLITE_V8_FLAGS = ['--liftoff-only'];

/** A platform statement's deadline on PGlite unless DatabaseOptions says otherwise. */
export const PLATFORM_STATEMENT_TIMEOUT_MS = 60_000;

/**
 * A new PGlite data dir, made and migrated by a child process: PGlite's initdb and the first
 * migrations grow its WebAssembly memories (which never shrink) and the process's heap to ~770 MB
 * RSS, given back only when the process ends (measured with bench/upload-memory.ts: a fresh start
 * served at 370 MB where a reopened data dir serves at 210 MB). The child builds it under a
 * temporary name and the rename publishes it whole: a start killed meanwhile leaves no half data
 * dir that a later start would take for a database.
 */
async function createPgliteDataDir(dir: string, migrate: boolean): Promise<void> {
  const temp = `${dir}.creating-${process.pid}`;
  fs.rmSync(temp, { recursive: true, force: true });
  const pglite = require.resolve('@electric-sql/pglite');
  const scripts = migrate ? [MIGRATIONS_TABLE, ...listMigrations().map(migrationScript)] : [];
  const script = `let input = '';
    process.stdin.setEncoding('utf8').on('data', (c) => (input += c)).on('end', async () => {
      try {
        const db = await require(${JSON.stringify(pglite)}).PGlite.create(${JSON.stringify(temp)}, { postgresqlconf: ${JSON.stringify(PGLITE_CONF)} });
        for (const sql of JSON.parse(input)) await db.exec(sql);
        await db.close();
        process.exit(0);
      } catch (err) { console.error(err); process.exit(1); }
    });`;
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [...PGLITE_V8_FLAGS, '-e', script], { stdio: ['pipe', 'ignore', 'pipe'], env: { PATH: process.env.PATH } });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(JSON.stringify(scripts));
  const code = await new Promise<number | null>((resolve, reject) => child.once('error', reject).once('exit', resolve));
  if (code !== 0) {
    fs.rmSync(temp, { recursive: true, force: true });
    throw new Error(`creating the embedded database in ${dir} failed (exit ${code}): ${stderr.trim().slice(-2000)}`);
  }
  fs.renameSync(temp, dir);
}

/** drizzle's parsers for a query: type oids it wants left as text (each of its parsers returns its input). */
function rawOids(parsers: Record<string, (value: string, typeId: number) => unknown> | undefined): number[] {
  return Object.entries(parsers ?? {}).map(([oid, parse]) => {
    // The worker can only be told "leave it as text"; a parser that does more must not be dropped silently.
    if (parse('2001-02-03 04:05:06', Number(oid)) !== '2001-02-03 04:05:06') throw new Error(`pglite: a query asked for a parser of type ${oid} that changes values; only identity parsers cross to the worker`);
    return Number(oid);
  });
}

interface PgliteQueryOptions {
  rowMode?: 'object' | 'array';
  parsers?: Record<string, (value: string, typeId: number) => unknown>;
}

function query(lease: Lease, sql: string, params: unknown[] = [], options: PgliteQueryOptions = {}): Promise<QueryResult> {
  return lease.send<QueryResult>({ op: 'query', sql, params, rowMode: options.rowMode ?? 'object', rawOids: rawOids(options.parsers) });
}

/** BEGIN (with the prelude, in one message), fn, COMMIT; ROLLBACK when anything fails. As PGlite's transaction(). */
async function inTransaction<T>(lease: Lease, prelude: string | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    await lease.send({ op: 'exec', sql: prelude ? `BEGIN;\n${prelude}` : 'BEGIN' });
    const result = await fn();
    const [commit] = await lease.send<{ command?: string }[]>({ op: 'exec', sql: 'COMMIT' });
    if (commit?.command === 'ROLLBACK') throw new EngineError('Transaction was rolled back instead of committed', { code: '25P02', severity: 'ERROR' });
    return result;
  } catch (err) {
    // After a kill the worker is gone, and with it the transaction.
    await lease.send({ op: 'exec', sql: 'ROLLBACK' }).catch(() => undefined);
    throw err;
  }
}

function txClient(lease: Lease): TxClient {
  return {
    query: async <T>(text: string, values: unknown[] = []) => (await query(lease, text, values)).rows as T[],
    queryArrays: async (text, values = [], textOids = []) => {
      const r = await query(lease, text, values, { rowMode: 'array', parsers: Object.fromEntries(textOids.map((oid) => [oid, (v: string) => v])) });
      return { fields: r.fields, rows: r.rows as unknown[][] };
    },
    setStatementTimeout: async (ms) => {
      lease.timeoutMs = Math.max(1, Math.trunc(ms));
      await query(lease, `SET LOCAL statement_timeout = ${lease.timeoutMs}`);
    },
  };
}

/** What drizzle-orm/pglite calls on its client (session.js): query, and transaction with a client that queries. */
function drizzleClient(host: PgliteHost) {
  return {
    query: (sql: string, params?: unknown[], options?: PgliteQueryOptions) => host.run((lease) => query(lease, sql, params, options)),
    transaction: <T>(fn: (tx: { query: (sql: string, params?: unknown[], options?: PgliteQueryOptions) => Promise<QueryResult> }) => Promise<T>) =>
      host.run((lease) => inTransaction(lease, undefined, () => fn({ query: (sql, params, options) => query(lease, sql, params, options) }))),
  };
}

export async function openPglite(opts: DatabaseOptions): Promise<Database> {
  for (const flag of PGLITE_V8_FLAGS) v8.setFlagsFromString(flag);
  const { drizzle } = await import('drizzle-orm/pglite');
  const dir = opts.pgliteDir ?? 'memory://';
  const onDisk = !dir.startsWith('memory://');
  // PGlite needs the parent folder to exist before it creates its data dir.
  if (onDisk) fs.mkdirSync(path.dirname(path.resolve(dir)), { recursive: true });
  if (onDisk && !opts.pgliteLoadDataDir && !fs.existsSync(path.join(dir, 'PG_VERSION'))) await createPgliteDataDir(path.resolve(dir), opts.migrate !== false);
  const host = new PgliteHost({
    // An in-memory database lives in the worker only and can't survive it (pglite-host.ts).
    dataDir: onDisk ? path.resolve(dir) : undefined,
    loadDataDir: opts.pgliteLoadDataDir ? await opts.pgliteLoadDataDir.arrayBuffer() : undefined,
    conf: PGLITE_CONF,
    platformTimeoutMs: opts.platformStatementTimeoutMs ?? PLATFORM_STATEMENT_TIMEOUT_MS,
    pauseAfterKillMs: opts.pauseAfterKillMs ?? 10_000,
    log: opts.log,
  });
  await host.start();
  const db = drizzle(drizzleClient(host) as never, { schema }) as unknown as Db;
  const rows = <T>(sql: string, params: unknown[] = [], timeoutMs?: number) => host.run(async (lease) => (await query(lease, sql, params)).rows as T[], { timeoutMs });
  const exec = async (sql: string, timeoutMs?: number) => void (await host.run((lease) => lease.send({ op: 'exec', sql }), { timeoutMs }));
  return {
    db,
    driver: 'pglite',
    query: (sql, params) => rows(sql, params),
    exec: (sql) => exec(sql),
    // A migration takes as long as it takes: no deadline.
    migrate: () => runMigrations((sql) => exec(sql, Infinity), (sql, params) => rows(sql, params, Infinity)),
    transaction: (fn, options = {}) => host.run((lease) => inTransaction(lease, options.prelude, () => fn(txClient(lease))), { tenant: options.tenant }),
    // One message: the worker runs them as one transaction (PGlite has no round trips to save).
    pipeline: (statements, options = {}) => host.run((lease) => lease.send<Record<string, unknown>[][]>({ op: 'pipeline', statements }), { tenant: options.tenant }),
    listen: (channel, onPayload, onGap, onResume) => host.listen(channel, onPayload, onGap, onResume),
    dump: async () => new Blob([await host.run((lease) => lease.send<ArrayBuffer>({ op: 'dump' }), { timeoutMs: Infinity })], { type: 'application/x-gzip' }),
    close: () => host.close(),
  };
}
