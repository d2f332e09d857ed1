// The one error model: named errors with a status and a stable code, thrown by services and
// rendered into { message, code } by the HTTP layer's one error handler (http/errors.ts).
import type { JsonLimitError } from './json-limits';

/**
 * Every `code` the API answers with: the stable half of { message, code } that clients branch on
 * (messages are for people and may be reworded). Fastify's own client errors keep their FST_ code.
 */
export const ErrorCode = {
  BadRequest: 'BAD_REQUEST',
  Validation: 'VALIDATION',
  ClientAborted: 'CLIENT_ABORTED',
  Unauthorized: 'UNAUTHORIZED',
  InvalidToken: 'INVALID_TOKEN',
  InvalidCredentials: 'INVALID_CREDENTIALS',
  InvalidApiKey: 'INVALID_API_KEY',
  MfaFailed: 'MFA_FAILED',
  Forbidden: 'FORBIDDEN',
  NotFound: 'NOT_FOUND',
  MethodNotAllowed: 'METHOD_NOT_ALLOWED',
  RequestTimeout: 'REQUEST_TIMEOUT',
  Conflict: 'CONFLICT',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  UriTooLong: 'URI_TOO_LONG',
  UnsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  RangeNotSatisfiable: 'RANGE_NOT_SATISFIABLE',
  HeadersTooLarge: 'HEADERS_TOO_LARGE',
  RateLimited: 'RATE_LIMITED',
  Internal: 'INTERNAL',
  NotImplemented: 'NOT_IMPLEMENTED',
  Unavailable: 'UNAVAILABLE',
  QueryFailed: 'QUERY_FAILED',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode] | `FST_${string}`;

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** The registry: every error a handler can answer with, by name. */
export const Errors = {
  badRequest: (message: string) => new AppError(400, ErrorCode.BadRequest, message),
  validation: (message: string) => new AppError(400, ErrorCode.Validation, message),
  clientAborted: () => new AppError(400, ErrorCode.ClientAborted, 'The connection closed before the request body arrived'),
  unauthorized: (message = 'Authentication required') => new AppError(401, ErrorCode.Unauthorized, message),
  invalidToken: () => new AppError(401, ErrorCode.InvalidToken, 'Invalid or expired token'),
  invalidCredentials: (message = 'Invalid email or password') => new AppError(401, ErrorCode.InvalidCredentials, message),
  invalidApiKey: () => new AppError(401, ErrorCode.InvalidApiKey, 'Invalid API key'),
  mfaFailed: (message: string) => new AppError(401, ErrorCode.MfaFailed, message),
  forbidden: (message = 'Forbidden') => new AppError(403, ErrorCode.Forbidden, message),
  notFound: (what = 'Resource') => new AppError(404, ErrorCode.NotFound, `${what} not found`),
  methodNotAllowed: (method: string, path: string, allow: string[]) =>
    new AppError(405, ErrorCode.MethodNotAllowed, `Method ${method} is not allowed on ${path}; use ${allow.join(', ')}`, { allow: allow.join(', ') }),
  conflict: (message: string) => new AppError(409, ErrorCode.Conflict, message),
  payloadTooLarge: (message: string) => new AppError(413, ErrorCode.PayloadTooLarge, message),
  uriTooLong: (maxParamLength: number) =>
    new AppError(414, ErrorCode.UriTooLong, `A path parameter is longer than ${maxParamLength} characters`),
  unsupportedMediaType: (message = 'Unsupported Content-Type') => new AppError(415, ErrorCode.UnsupportedMediaType, message),
  /** With the object's size, Content-Range tells the client what it may ask for. */
  rangeNotSatisfiable: (size?: number) =>
    new AppError(416, ErrorCode.RangeNotSatisfiable, 'Requested range not satisfiable', size === undefined ? {} : { 'content-range': `bytes */${size}` }),
  tooManyRequests: (retryAfterSeconds: number) =>
    new AppError(429, ErrorCode.RateLimited, `Too many attempts. Try again in ${humanSeconds(retryAfterSeconds)}.`, {
      'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    }),
  /**
   * A caller whose database statement ran past the statement timeout waits before its next
   * database call (modules/database/timeout-cooldown.ts).
   */
  databaseCooldown: (retryAfterSeconds: number) =>
    new AppError(
      429,
      ErrorCode.RateLimited,
      `Your last database call ran past its time limit, so your database calls are paused. Try again in ${humanSeconds(retryAfterSeconds)}.`,
      { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    ),
  /** A Fastify client error (4xx) passed on with its own status, code and message. */
  fastify: (statusCode: number, code: `FST_${string}`, message: string) => new AppError(statusCode, code, message),
  notImplemented: (operationId: string) =>
    new AppError(501, ErrorCode.NotImplemented, `${operationId} is in the contract but not implemented yet`),
  unavailable: (message = 'Service temporarily unavailable') => new AppError(503, ErrorCode.Unavailable, message),
  /** The disk (DATA_DIR) is full or over its quota: nothing was saved. */
  diskFull: () =>
    new AppError(503, ErrorCode.Unavailable, "The server's disk is full, so nothing was saved. Try again later (an operator has to free space).", { 'retry-after': '60' }),
  /** The database or the file store could not be reached (down, restarting, or the network to it cut). */
  backendDown: () =>
    new AppError(503, ErrorCode.Unavailable, 'A service the platform depends on (its database or file storage) cannot be reached right now. Try again shortly.', { 'retry-after': '5' }),
  /** JSON past a limit of platform/json-limits.ts: too deep is the sender's malformed request, too large a 413. */
  jsonLimit: (err: JsonLimitError) => (err.kind === 'depth' ? new AppError(400, ErrorCode.Validation, err.message) : new AppError(413, ErrorCode.PayloadTooLarge, err.message)),
  /** PostgreSQL refused a project's statement (syntax, unknown column, timeout): its own message. */
  queryFailed: (message: string) => new AppError(422, ErrorCode.QueryFailed, message),
} as const;

function humanSeconds(s: number): string {
  if (s < 90) return `${Math.max(1, Math.ceil(s))} seconds`;
  return `${Math.ceil(s / 60)} minutes`;
}

/**
 * A start that can't go on for a reason the operator fixes (a busy port, an unreachable
 * database, a folder it may not write): server.ts prints its message alone, with no stack, and
 * exits 1. The message names the setting to change.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}
