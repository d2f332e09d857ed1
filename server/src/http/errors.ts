// The one error model: named errors with a status and a stable code, rendered by one handler
// into { message, code }. Internals of 5xx errors go to the log, never to the client.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

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
  /** PostgreSQL refused a project's statement (syntax, unknown column, timeout): its own message. */
  queryFailed: (message: string) => new AppError(422, ErrorCode.QueryFailed, message),
} as const;

function humanSeconds(s: number): string {
  if (s < 90) return `${Math.max(1, Math.ceil(s))} seconds`;
  return `${Math.ceil(s / 60)} minutes`;
}

const MULTIPART_PARSE_ERROR = /^(Unexpected end of (multipart data|form)|Multipart: Boundary not found|Malformed part header|Part terminated early|Boundary required)/;

interface SecurityErrorLike extends Error {
  statusCode?: number;
  errors?: unknown[];
}

const isFastifyCode = (code: string): code is `FST_${string}` => code.startsWith('FST_');

function fromFastify(err: FastifyError): AppError | undefined {
  if (err.validation) {
    // Fastify's message already names the field: "body/email must match format "email"".
    return Errors.validation(err.message);
  }
  const code = err.code ?? '';
  // The client went away (or was cut off as too slow) before its body arrived: nobody to answer.
  if (code === 'ECONNRESET' && err.message === 'aborted') return Errors.clientAborted();
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return Errors.validation("body must be a JSON object (got an empty body with Content-Type application/json)");
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return Errors.unsupportedMediaType();
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || code === 'FST_REQ_FILE_TOO_LARGE')
    return Errors.payloadTooLarge('Request body is too large');
  if (code.startsWith('FST_ERR_CTP') || (err as { type?: string }).type === 'entity.parse.failed' || err instanceof SyntaxError)
    return Errors.validation(`body is not valid JSON: ${err.message.replace(/^Body is not valid JSON but content-type is set to 'application\/json'$/, 'malformed')}`);
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return Errors.validation('the request is not multipart/form-data');
  if (code === 'FST_FILES_LIMIT') return Errors.validation('Send one file per upload');
  // The multipart parser (busboy) throws plain Errors for a broken form: the client's fault.
  if (code === '' && MULTIPART_PARSE_ERROR.test(err.message)) return Errors.validation(`The multipart body is malformed: ${err.message}`);
  if (isFastifyCode(code) && err.statusCode && err.statusCode < 500) return Errors.fastify(err.statusCode, code, err.message);
  // fastify-openapi-glue: none of the security handlers passed; surface the first of ours.
  if (err.name === 'SecurityError') {
    const inner = (err as SecurityErrorLike).errors?.find((e): e is AppError => e instanceof AppError);
    return inner ?? Errors.unauthorized();
  }
  return undefined;
}

/** Codes of a full disk (ENOSPC; EDQUOT: the user's quota on it). */
const DISK_FULL = new Set(['ENOSPC', 'EDQUOT']);
/** Codes of a backing service out of reach: the network (pg, the S3 client) or PostgreSQL itself going away. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);
/** SQLSTATEs of a server going away: connection exceptions (08…), shutdowns and starts (57P01–57P03). */
const PG_GONE = /^(08...|57P0[123])$/;
const PG_CLIENT_GONE = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Connection terminated due to connection timeout)/;

/**
 * An outage of what the platform stands on, found anywhere in an error's cause chain (drizzle and
 * the stores wrap the driver's error): a full disk, or the database or S3 out of reach. These are
 * nobody's bug and pass when the outage does: a 503 that says so, never a 500.
 */
function fromOutage(err: unknown): AppError | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = String((e as { code?: unknown }).code ?? '');
    if (DISK_FULL.has(code)) return Errors.diskFull();
    if (UNREACHABLE.has(code) || PG_GONE.test(code)) return Errors.backendDown();
    if (e instanceof Error && PG_CLIENT_GONE.test(e.message)) return Errors.backendDown();
  }
  return undefined;
}

export function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  if (err && typeof err === 'object') return fromFastify(err as FastifyError) ?? fromOutage(err);
  return undefined;
}

function sendError(err: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const known = toAppError(err);
  if (known && known.statusCode < 500) {
    req.log.info({ code: known.code, status: known.statusCode }, known.message);
    return reply.code(known.statusCode).headers(known.headers).send({ message: known.message, code: known.code });
  }
  if (known) {
    // An outage found in a driver's error: the operator needs that error, the client only the 503.
    req.log.warn({ code: known.code, status: known.statusCode, ...(known === err ? {} : { err }) }, known.message);
    return reply.code(known.statusCode).headers(known.headers).send({ message: known.message, code: known.code });
  }
  req.log.error({ err }, 'unhandled error');
  return reply.code(500).send({ message: 'Internal server error', code: ErrorCode.Internal });
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => sendError(err, req, reply));
}

/**
 * Fastify's `frameworkErrors` option: errors the router raises before any route (and so before
 * the error handler) exists, rendered in the one shape instead of Fastify's own
 * {"error":"Bad Request",…} body. A path parameter over the router's `maxParamLength` is a 414.
 */
export function frameworkErrors(maxParamLength: number) {
  return (err: FastifyError, req: FastifyRequest, reply: FastifyReply): void => {
    if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      sendError(Errors.uriTooLong(maxParamLength), req, reply);
    } else if (err.code === 'FST_ERR_BAD_URL') {
      sendError(Errors.badRequest('The URL has a malformed path component (bad percent-encoding)'), req, reply);
    } else {
      sendError(err, req, reply);
    }
  };
}

export function routeNotFound(method: string, url: string): AppError {
  return Errors.notFound(`Route ${method} ${url.split('?')[0]}`);
}
