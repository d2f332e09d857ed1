// What the platform asks of its database, whichever engine serves it: the Database interface
// and its options, apart from the engines (client.ts opens them) so the engines' files and the
// interface import nothing of each other.
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { schema } from './schema';
import type { SqlExecutor } from './migrate';
import type { PipelineStatement } from './pipeline';

/** Where PGlite's host tells its worker's restarts. */
export interface HostLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

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
  pipeline(statements: PipelineStatement[], options?: { tenant?: TenantLimits }): Promise<Record<string, unknown>[][]>;
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
  /** A project's statements (tenant-session.ts), with their statement_timeout. */
  tenant?: TenantLimits;
}

/**
 * A project's statements, as the engine must know them: PostgreSQL enforces statement_timeout
 * itself (the tenant session sets it), PGlite can't, so its host ends a statement past timeoutMs
 * by restarting its worker (pglite-host.ts), and runs the platform's own statements first.
 */
export interface TenantLimits {
  timeoutMs: number;
  /**
   * Who the statements are for (an end user, a key and address, a developer): on PGlite, when one
   * of theirs is ended, their others admitted before it fail without running (CallerPaused).
   */
  caller?: string;
  /**
   * When the caller was let through the API's pause check (modules/database/timeout-cooldown.ts):
   * on PGlite, a unit admitted before the caller's last kill is refused without running. Absent:
   * when the unit was queued.
   */
  admittedAt?: number;
}

export interface TxClient {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Rows as arrays in the columns' order, with the columns' names and type oids: for a query the
   * platform did not write (the SQL box), whose column names may repeat. `textOids`: types whose
   * values come as PostgreSQL's text, unparsed (the same on both engines).
   */
  queryArrays(sql: string, params?: unknown[], textOids?: number[]): Promise<ArrayResult>;
  /** statement_timeout for the transaction's next statements (SET LOCAL; on PGlite, their deadline too). */
  setStatementTimeout(ms: number): Promise<void>;
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
  /** PGlite: the deadline of the platform's own statements (default 60 s; tenants' come with them). */
  platformStatementTimeoutMs?: number;
  /** PGlite: the Retry-After of a caller's statements refused after one of theirs was ended at its deadline (default 10 s). */
  pauseAfterKillMs?: number;
  /** PGlite: where its worker's restarts are told. */
  log?: HostLog;
}
