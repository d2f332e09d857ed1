// PostgreSQL's refusals of a tenant's statement, as the platform's errors. The message is
// PostgreSQL's own (it names the column, value or constraint); nothing else of the error leaks.
import { AppError, Errors } from './errors';
import { CallerPaused, isConnectionLoss } from '../db/engine-errors';

interface PgError {
  code?: string;
  message?: string;
  detail?: string;
}

function pgError(err: unknown): PgError | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const e = err as PgError;
  return typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) ? e : undefined;
}

/**
 * The error to answer for a failed tenant statement; unknown errors are rethrown (a 500), and so
 * is a lost connection (the database went away, or PGlite's worker was restarted): the error
 * handler answers it 503, as for any other call.
 */
export function tenantError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof CallerPaused) return Errors.databaseCooldown(err.retryAfterSeconds);
  const e = pgError(err);
  if (!e || isConnectionLoss(e)) throw err;
  const message = [e.message, e.detail].filter(Boolean).join(': ');
  const cls = e.code!.slice(0, 2);
  if (e.code === '42501') return Errors.forbidden(e.message ?? 'permission denied');
  if (e.code === '23505' || e.code === '23503' || e.code === '23P01' || e.code === '42P07' || e.code === '42701' || e.code === '2BP01') return Errors.conflict(message);
  // Data exceptions and integrity rules the value broke: the caller's input.
  if (cls === '22' || cls === '23') return Errors.validation(message);
  if (e.code === '42P01') return Errors.notFound('Table');
  return Errors.queryFailed(message);
}

/** PostgreSQL's unique_violation (23505), from pg or PGlite, bare or wrapped by drizzle. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) if (e.code === '23505') return true;
  return false;
}
