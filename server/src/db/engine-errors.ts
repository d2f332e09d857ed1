// The errors the embedded database's host raises itself, shaped as PostgreSQL's (a SQLSTATE in
// `code`): callers map them exactly as they map the same error from a PostgreSQL server
// (modules/database/pg-errors.ts for a tenant's statement, http/errors.ts for the rest).
import type { WorkerError } from './pglite-worker';

/** A PostgreSQL error's fields on an Error, as pg and PGlite give them. */
export class EngineError extends Error {
  code?: string;
  severity?: string;
  detail?: string;
  constructor(message: string, fields: Record<string, string | number | undefined> = {}, name = 'error') {
    super(message);
    this.name = name;
    Object.assign(this, fields);
  }
}

/** An error the worker sent back, with its PostgreSQL fields. */
export function fromWorker(e: WorkerError): EngineError {
  return new EngineError(e.message, e.fields, e.name);
}

/**
 * What PostgreSQL answers when statement_timeout ends a statement (query_canceled): the same
 * SQLSTATE and text, so the caller's answer is the same on both engines.
 */
export function statementTimeout(): EngineError {
  return new EngineError('canceling statement due to statement timeout', { code: '57014', severity: 'ERROR' });
}

/**
 * The connection a statement was on is gone (PostgreSQL's admin_shutdown, as when a backend is
 * terminated): the statement may or may not have run; nothing uncommitted is kept. The platform
 * answers 503 (http/errors.ts, PG_GONE).
 */
export function connectionLost(reason: string): EngineError {
  return new EngineError(`terminating connection: ${reason}`, { code: '57P01', severity: 'FATAL' });
}

/**
 * Not PostgreSQL's: embedded PGlite's host refused a tenant's statement without running it, because
 * another statement of the same caller ran past its deadline a moment ago (db/pglite-host.ts). The
 * caller is answered as a paused one (429, modules/database/timeout-cooldown.ts).
 */
export class CallerPaused extends Error {
  readonly code = 'HB_CALLER_PAUSED';
  readonly retryAfterSeconds: number;
  constructor(leftMs: number) {
    super('not run: a statement of the same caller ran past its deadline a moment ago');
    this.name = 'CallerPaused';
    this.retryAfterSeconds = Math.max(1, Math.ceil(leftMs / 1000));
  }
}

/** SQLSTATEs of a lost connection or a server going away (connection exceptions, shutdowns). */
export function isConnectionLoss(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(08...|57P0[123])$/.test(code);
}
