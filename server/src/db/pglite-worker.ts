// The embedded database's own thread: PGlite opened here (pglite-host.ts starts this file as a
// worker, .js from dist/ or .ts through tsx from the sources), answering one message at a time.
// PGlite can't cancel a statement (no timer signal in WebAssembly), so a statement that runs too
// long is ended by the host terminating this whole thread; nothing here keeps state the data
// dir doesn't (a new worker on the same dir is PostgreSQL's crash recovery).
//
// Values cross the thread boundary by structured clone, which keeps what PGlite's parsers make
// (Date, BigInt, Uint8Array, arrays, parsed JSON): callers see what an in-thread PGlite gave them.
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { PGlite, Results } from '@electric-sql/pglite';

export interface WorkerInit {
  /** Absent: an in-memory database. */
  dataDir?: string;
  /** A dumped data dir (tarball) to start from. */
  loadDataDir?: ArrayBuffer;
  conf: string[];
}

/** A statement of a pipeline: its text and bound values. */
export interface WorkerStatement {
  text: string;
  values?: unknown[];
}

export interface QueryShape {
  rowMode: 'object' | 'array';
  /** Type oids whose values stay PostgreSQL's text (drizzle's identity parsers: dates, intervals, …). */
  rawOids: number[];
}

export type WorkerRequest = { id: number } & (
  | ({ op: 'query'; sql: string; params: unknown[] } & QueryShape)
  | { op: 'exec'; sql: string }
  | { op: 'pipeline'; statements: WorkerStatement[] }
  | { op: 'listen' | 'unlisten'; channel: string }
  | { op: 'dump' }
  | { op: 'close' }
);

export interface QueryResult {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
  command?: string;
}

/** A PostgreSQL error's fields (DatabaseError's own properties), or a plain error's message. */
export interface WorkerError {
  name: string;
  message: string;
  fields: Record<string, string | number | undefined>;
}

export type WorkerReply =
  /** probe: a Date, for the host to tell whether what arrives is of its own realm (db/realm.ts). */
  | { type: 'ready'; probe: Date }
  | { type: 'failed'; error: WorkerError }
  | { type: 'notify'; channel: string; payload: string }
  | { type: 'reply'; id: number; ok: true; result: unknown }
  | { type: 'reply'; id: number; ok: false; error: WorkerError };

const ERROR_FIELDS = ['code', 'severity', 'detail', 'hint', 'position', 'internalPosition', 'internalQuery', 'where', 'schema', 'table', 'column', 'dataType', 'constraint', 'file', 'line', 'routine'];

export function serializeError(err: unknown): WorkerError {
  const e = (err ?? {}) as Record<string, unknown>;
  const fields: WorkerError['fields'] = {};
  for (const k of ERROR_FIELDS) if (typeof e[k] === 'string' || typeof e[k] === 'number') fields[k] = e[k] as string | number;
  return { name: typeof e.name === 'string' ? e.name : 'Error', message: typeof e.message === 'string' ? e.message : String(err), fields };
}

function shape(r: Results<unknown>): QueryResult {
  return { rows: r.rows, fields: r.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })), affectedRows: r.affectedRows, command: r.command };
}

const identity = (v: string) => v;

async function handle(db: PGlite, m: WorkerRequest, listening: Map<string, () => Promise<void>>): Promise<unknown> {
  switch (m.op) {
    case 'query': {
      // Options only when needed: PGlite merges a query's parsers into its own on every call
      // (measured: 0.15 ms a query for an empty parsers object).
      const options = m.rawOids.length ? { rowMode: m.rowMode, parsers: Object.fromEntries(m.rawOids.map((oid) => [oid, identity])) } : m.rowMode === 'array' ? { rowMode: m.rowMode } : undefined;
      return shape(await db.query(m.sql, m.params, options));
    }
    case 'exec': {
      const results = await db.exec(m.sql);
      return results.map((r) => ({ command: r.command, affectedRows: r.affectedRows }));
    }
    case 'pipeline':
      // One transaction, as PostgreSQL runs statements before a Sync: all or nothing.
      return db.transaction(async (tx) => {
        const rows: unknown[][] = [];
        for (const s of m.statements) rows.push((await tx.query(s.text, s.values ?? [])).rows);
        return rows;
      });
    case 'listen': {
      if (!listening.has(m.channel)) {
        const channel = m.channel;
        listening.set(channel, await db.listen(channel, (payload) => post({ type: 'notify', channel, payload })));
      }
      return null;
    }
    case 'unlisten': {
      const stop = listening.get(m.channel);
      listening.delete(m.channel);
      await stop?.();
      return null;
    }
    case 'dump': {
      const blob = (await db.dumpDataDir('gzip')) as Blob;
      return await blob.arrayBuffer();
    }
    case 'close':
      await db.close();
      return null;
  }
}

function post(reply: WorkerReply, transfer: ArrayBuffer[] = []): void {
  parentPort!.postMessage(reply, transfer);
}

async function main(): Promise<void> {
  const init = workerData as WorkerInit;
  let db: PGlite;
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    db = await PGlite.create(init.dataDir, {
      loadDataDir: init.loadDataDir ? new Blob([init.loadDataDir]) : undefined,
      postgresqlconf: init.conf,
    });
  } catch (err) {
    post({ type: 'failed', error: serializeError(err) });
    return;
  }
  const listening = new Map<string, () => Promise<void>>();
  parentPort!.on('message', (m: WorkerRequest) => {
    handle(db, m, listening).then(
      (result) => post({ type: 'reply', id: m.id, ok: true, result }, result instanceof ArrayBuffer ? [result] : []),
      (err: unknown) => post({ type: 'reply', id: m.id, ok: false, error: serializeError(err) }),
    );
  });
  post({ type: 'ready', probe: new Date(0) });
}

if (!isMainThread && parentPort && (workerData as { pglite?: unknown } | undefined)?.pglite === true) void main();
