// One drizzle API over two engines: embedded PGlite (no configuration; in a worker thread,
// db/pglite.ts) or PostgreSQL (DATABASE_URL).
import { schema } from './schema';
import { runMigrations } from './migrate';

export type { ArrayResult, Database, DatabaseOptions, Db, Schema, TenantLimits, TransactionOptions, TxClient } from './database';
import type { Database, DatabaseOptions, Db, TxClient } from './database';

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  const database = opts.databaseUrl ? await openPostgres(opts) : await (await import('./pglite')).openPglite(opts);
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
          queryArrays: async (text, values = [], textOids = []) => {
            const r = await conn.query<unknown[]>({ ...extended(text, values), rowMode: 'array', ...(textOids.length ? { types: textTypes(textOids) } : {}) });
            return { fields: r.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })), rows: r.rows };
          },
          setStatementTimeout: async (ms) => void (await conn.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.trunc(ms))}`)),
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

/** pg's type parsers, except the types given, which stay PostgreSQL's text. */
function textTypes(oids: number[]): import('pg').CustomTypesConfig {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- pg is loaded on PostgreSQL only
  const { types } = require('pg') as typeof import('pg');
  return { getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oids.includes(oid) ? (v: string) => v : types.getTypeParser(oid, format))) as import('pg').CustomTypesConfig['getTypeParser'] };
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
