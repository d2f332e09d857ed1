// The one error model: named errors with a status and a stable code, rendered by one handler
// into { message, code }. Internals of 5xx errors go to the log, never to the client.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** The registry: every error a handler can answer with, by name. */
export const Errors = {
  badRequest: (message: string) => new AppError(400, 'BAD_REQUEST', message),
  validation: (message: string) => new AppError(400, 'VALIDATION', message),
  unauthorized: (message = 'Authentication required') => new AppError(401, 'UNAUTHORIZED', message),
  invalidToken: () => new AppError(401, 'INVALID_TOKEN', 'Invalid or expired token'),
  invalidCredentials: () => new AppError(401, 'INVALID_CREDENTIALS', 'Invalid email or password'),
  invalidApiKey: () => new AppError(401, 'INVALID_API_KEY', 'Invalid API key'),
  forbidden: (message = 'Forbidden') => new AppError(403, 'FORBIDDEN', message),
  notFound: (what = 'Resource') => new AppError(404, 'NOT_FOUND', `${what} not found`),
  methodNotAllowed: (method: string, path: string, allow: string[]) =>
    new AppError(405, 'METHOD_NOT_ALLOWED', `Method ${method} is not allowed on ${path}; use ${allow.join(', ')}`, { allow: allow.join(', ') }),
  conflict: (message: string) => new AppError(409, 'CONFLICT', message),
  payloadTooLarge: (message: string) => new AppError(413, 'PAYLOAD_TOO_LARGE', message),
  uriTooLong: (maxParamLength: number) =>
    new AppError(414, 'URI_TOO_LONG', `A path parameter is longer than ${maxParamLength} characters`),
  rangeNotSatisfiable: () => new AppError(416, 'RANGE_NOT_SATISFIABLE', 'Requested range not satisfiable'),
  tooManyRequests: (retryAfterSeconds: number) =>
    new AppError(429, 'RATE_LIMITED', `Too many attempts. Try again in ${humanSeconds(retryAfterSeconds)}.`, {
      'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    }),
  notImplemented: (operationId: string) =>
    new AppError(501, 'NOT_IMPLEMENTED', `${operationId} is in the contract but not implemented yet`),
  unavailable: (message = 'Service temporarily unavailable') => new AppError(503, 'UNAVAILABLE', message),
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

function fromFastify(err: FastifyError): AppError | undefined {
  if (err.validation) {
    // Fastify's message already names the field: "body/email must match format "email"".
    return new AppError(400, 'VALIDATION', err.message);
  }
  const code = err.code ?? '';
  // The client went away (or was cut off as too slow) before its body arrived: nobody to answer.
  if (code === 'ECONNRESET' && err.message === 'aborted') return new AppError(400, 'CLIENT_ABORTED', 'The connection closed before the request body arrived');
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return Errors.validation("body must be a JSON object (got an empty body with Content-Type application/json)");
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', `Unsupported Content-Type`);
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || code === 'FST_REQ_FILE_TOO_LARGE')
    return Errors.payloadTooLarge('Request body is too large');
  if (code.startsWith('FST_ERR_CTP') || (err as { type?: string }).type === 'entity.parse.failed' || err instanceof SyntaxError)
    return Errors.validation(`body is not valid JSON: ${err.message.replace(/^Body is not valid JSON but content-type is set to 'application\/json'$/, 'malformed')}`);
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return Errors.validation('the request is not multipart/form-data');
  if (code === 'FST_FILES_LIMIT') return Errors.validation('Send one file per upload');
  // The multipart parser (busboy) throws plain Errors for a broken form: the client's fault.
  if (code === '' && MULTIPART_PARSE_ERROR.test(err.message)) return Errors.validation(`The multipart body is malformed: ${err.message}`);
  if (code.startsWith('FST_') && err.statusCode && err.statusCode < 500) return new AppError(err.statusCode, code, err.message);
  // fastify-openapi-glue: none of the security handlers passed; surface the first of ours.
  if (err.name === 'SecurityError') {
    const inner = (err as SecurityErrorLike).errors?.find((e): e is AppError => e instanceof AppError);
    return inner ?? Errors.unauthorized();
  }
  return undefined;
}

export function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  if (err && typeof err === 'object') return fromFastify(err as FastifyError);
  return undefined;
}

function sendError(err: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const known = toAppError(err);
  if (known && known.statusCode < 500) {
    req.log.info({ code: known.code, status: known.statusCode }, known.message);
    return reply.code(known.statusCode).headers(known.headers).send({ message: known.message, code: known.code });
  }
  if (known) {
    req.log.warn({ code: known.code, status: known.statusCode }, known.message);
    return reply.code(known.statusCode).headers(known.headers).send({ message: known.message, code: known.code });
  }
  req.log.error({ err }, 'unhandled error');
  return reply.code(500).send({ message: 'Internal server error', code: 'INTERNAL' });
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
