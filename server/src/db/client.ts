// One drizzle API over two engines: embedded PGlite (no configuration) or PostgreSQL (DATABASE_URL).
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { schema } from './schema';
import { listMigrations, migrationScript, MIGRATIONS_TABLE, runMigrations, type SqlExecutor } from './migrate';
import type { PipelineStatement } from './pipeline';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  /** Raw SQL with positional parameters; used by migrations, health and the few statements drizzle can't express. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  exec: SqlExecutor;
  /** Applies pending migrations on one connection (advisory locks are per session). */
  migrate(): Promise<string[]>;
  /**
   * One transaction on one connection, every statement over the extended protocol (one statement
   * per call: text can never smuggle a second one). Rolled back when fn throws.
   */
  transaction<T>(fn: (tx: TxClient) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Statements run in order as one transaction, in one round trip on PostgreSQL (db/pipeline.ts);
   * each statement's rows. A statement may rely on settings a previous one made with
   * set_config(…, true). All or nothing: a failing statement rolls back the ones before it.
   */
  pipeline(statements: PipelineStatement[]): Promise<Record<string, unknown>[][]>;
  /**
   * Calls onPayload for each NOTIFY on channel, from any connection or instance; resolves to
   * unlisten. onGap: the listening connection was lost (notifications sent until it is back are
   * lost too); it reconnects by itself, and calls onResume when it listens again.
   */
  listen(channel: string, onPayload: (payload: string) => void, onGap?: () => void, onResume?: () => void): Promise<() => Promise<void>>;
  /** PGlite only: the data dir as a tarball (a fast template for tests). */
  dump?(): Promise<Blob>;
  close(): Promise<void>;
}

export interface TransactionOptions {
  /**
   * The platform's own statements, sent with BEGIN in one message (one round trip instead of
   * one each): settings and SET LOCAL ROLE. Never text a caller sent: it goes over the simple
   * protocol, where several statements run.
   */
  prelude?: string;
}

export interface TxClient {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Rows as arrays in the columns' order, with the columns' names and type oids: for a query the
   * platform did not write (the SQL box), whose column names may repeat.
   */
  queryArrays(sql: string, params?: unknown[]): Promise<ArrayResult>;
}

export interface ArrayResult {
  fields: { name: string; dataTypeID: number }[];
  rows: unknown[][];
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** PGlite data directory (ignored with databaseUrl). 'memory://' for an in-memory database. */
  pgliteDir?: string;
  /** PGlite: start from a dumped data dir (a fast test template). */
  pgliteLoadDataDir?: Blob;
  migrate?: boolean;
  poolSize?: number;
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  const database = opts.databaseUrl ? await openPostgres(opts) : await openPglite(opts);
  if (opts.migrate !== false) await database.migrate();
  return database;
}

async function openPostgres(opts: DatabaseOptions): Promise<Database> {
  const { Pool } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  // pg's internals, which the pipeline reaches into, are loaded with pg, never on PGlite.
  const { runPipeline } = await import('./pipeline');
  const pool = new Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
  // An idle client's network error must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  const db = drizzle(pool, { schema }) as unknown as Db;
  const query = async <T>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
  return {
    db,
    driver: 'postgres',
    query,
    exec: async (sql) => {
      await pool.query(sql);
    },
    migrate: async () => {
      const conn = await pool.connect();
      try {
        return await runMigrations(
          async (sql) => void (await conn.query(sql)),
          async <T>(sql: string, params: unknown[] = []) => (await conn.query(sql, params)).rows as T[],
        );
      } finally {
        conn.release();
      }
    },
    transaction: async (fn, options = {}) => {
      const conn = await pool.connect();
      let broken: Error | undefined;
      try {
        await conn.query(options.prelude ? `BEGIN;\n${options.prelude}` : 'BEGIN');
        const tx: TxClient = {
          query: async <T>(text: string, values: unknown[] = []) => (await conn.query(extended(text, values))).rows as T[],
          queryArrays: async (text, values = []) => {
            const r = await conn.query<unknown[]>({ ...extended(text, values), rowMode: 'array' });
            return { fields: r.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })), rows: r.rows };
          },
        };
        const result = await fn(tx);
        await conn.query('COMMIT');
        return result;
      } catch (err) {
        await conn.query('ROLLBACK').catch((e: Error) => (broken = e));
        throw err;
      } finally {
        // A connection that could not roll back is closed rather than reused.
        conn.release(broken);
      }
    },
    pipeline: async (statements) => {
      const conn = await pool.connect();
      let broken: Error | undefined;
      try {
        return await runPipeline(conn, statements);
      } catch (err) {
        // A server error ends the implicit transaction at the Sync; a lost connection is not reused.
        if (!(err instanceof Error && 'severity' in err)) broken = err as Error;
        throw err;
      } finally {
        conn.release(broken);
      }
    },
    listen: (channel, onPayload, onGap, onResume) => listenPostgres(opts.databaseUrl!, channel, onPayload, onGap, onResume),
    close: () => pool.end(),
  };
}

/** pg's extended protocol even without parameters (queryMode is not in @types/pg). */
function extended(text: string, values: unknown[]): import('pg').QueryConfig {
  return { text, values, queryMode: 'extended' } as import('pg').QueryConfig;
}

/**
 * LISTEN on a dedicated connection (a pooled one would be handed to others), reconnecting after
 * a network error (every second until it succeeds); notifications sent while it was down are
 * lost, so onGap tells the caller (an SSE client reconnects and re-reads).
 */
async function listenPostgres(
  url: string,
  channel: string,
  onPayload: (payload: string) => void,
  onGap?: () => void,
  onResume?: () => void,
): Promise<() => Promise<void>> {
  const { Client } = await import('pg');
  let client: InstanceType<typeof Client> | undefined;
  let stopped = false;
  let lostOnce = false;
  let retry: NodeJS.Timeout | undefined;
  const reconnect = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect().catch(reconnect);
    }, 1000);
  };
  const connect = async (): Promise<void> => {
    const c = new Client({ connectionString: url });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      void c.end().catch(() => undefined);
      if (client === c) client = undefined;
      if (stopped) return;
      lostOnce = true;
      onGap?.();
      reconnect();
    };
    c.on('notification', (n) => {
      if (n.channel === channel && n.payload !== undefined) onPayload(n.payload);
    });
    c.on('error', onLost);
    c.on('end', onLost);
    try {
      await c.connect();
      await c.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
    } catch (err) {
      lost = true;
      await c.end().catch(() => undefined);
      throw err;
    }
    // Stopped while connecting: this connection is nobody's.
    if (stopped) {
      lost = true;
      await c.end().catch(() => undefined);
      return;
    }
    const resumed = lostOnce;
    client = c;
    if (resumed) onResume?.();
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = client;
    client = undefined;
    await c?.end().catch(() => undefined);
  };
}

// An embedded, single-user database needs little cache: measured on reopen of a data dir,
// process RSS 187 -> 155 MB with these settings instead of PostgreSQL's defaults. shared_buffers
// 16 -> 4 MB: 256 MiB upload peak on a reopened data dir 218 -> 203 MB, fresh 209-240 -> 221-228
// MB (a miss reads the data dir's file through the OS page cache, in process).
const PGLITE_CONF = ['shared_buffers=4MB', 'work_mem=1MB', 'maintenance_work_mem=8MB', 'wal_buffers=256kB'];

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

/**
 * PGlite's WebAssembly compiled by Liftoff only, never tiered up by TurboFan: the tier-up's
 * compile zones on V8's background threads stay in malloc's thread arenas after they are freed.
 * Measured (bench/upload-memory.ts, 256 MiB upload, PGlite): reopened peak 302 -> 232 MB, fresh
 * 303 -> 243-251 MB; a PGlite open alone 170 -> 130 MB RSS, ready in 0.7 s instead of 2.5-3.9 s, and
 * 3,000 small queries 28 % faster on two cores (no compile competing). Process-wide, so it is set
 * before PGlite compiles its module. It also applies to hash-wasm's Argon2 (mailbox passwords,
 * compiled later), which runs in Liftoff code too: slower per hash, not measured here.
 */
const PGLITE_V8_FLAGS = ['--liftoff-only'];

async function openPglite(opts: DatabaseOptions): Promise<Database> {
  for (const flag of PGLITE_V8_FLAGS) v8.setFlagsFromString(flag);
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const dir = opts.pgliteDir ?? 'memory://';
  const onDisk = !dir.startsWith('memory://');
  // PGlite needs the parent folder to exist before it creates its data dir.
  if (onDisk) fs.mkdirSync(path.dirname(path.resolve(dir)), { recursive: true });
  if (onDisk && !opts.pgliteLoadDataDir && !fs.existsSync(path.join(dir, 'PG_VERSION'))) await createPgliteDataDir(path.resolve(dir), opts.migrate !== false);
  const client = await PGlite.create(onDisk ? dir : undefined, {
    loadDataDir: opts.pgliteLoadDataDir,
    postgresqlconf: PGLITE_CONF,
  });
  const db = drizzle(client, { schema }) as unknown as Db;
  const query = async <T>(sql: string, params: unknown[] = []) => (await client.query<T>(sql, params)).rows;
  return {
    db,
    driver: 'pglite',
    query,
    exec: async (sql) => {
      await client.exec(sql);
    },
    migrate: () => runMigrations(async (sql) => void (await client.exec(sql)), query),
    transaction: (fn, options = {}) =>
      client.transaction(async (tx) => {
        if (options.prelude) await tx.exec(options.prelude);
        return fn({
          query: async <T>(text: string, values: unknown[] = []) => (await tx.query<T>(text, values)).rows,
          queryArrays: async (text, values = []) => {
            const r = await tx.query<unknown[]>(text, values, { rowMode: 'array' });
            return { fields: r.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })), rows: r.rows };
          },
        });
      }),
    // PGlite is in process: no round trips to save, one transaction gives the same meaning.
    pipeline: (statements) =>
      client.transaction(async (tx) => {
        const results: Record<string, unknown>[][] = [];
        for (const st of statements) results.push((await tx.query<Record<string, unknown>>(st.text, st.values ?? [])).rows);
        return results;
      }),
    // In process: PGlite is one connection, so its LISTEN is the whole platform's.
    listen: (channel, onPayload) => client.listen(channel, onPayload),
    dump: async () => (await client.dumpDataDir('gzip')) as Blob,
    close: () => client.close(),
  };
}
