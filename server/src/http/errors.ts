// The one error handler: the registry's named errors (platform/errors.ts), Fastify's own and the
// outages of what the platform stands on, rendered into { message, code }. Internals of 5xx
// errors go to the log, never to the client.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ErrorCode, Errors } from '../platform/errors';
import { JsonLimitError } from '../platform/json-limits';

// The registry, for the HTTP layer's own files.
export { AppError, ErrorCode, Errors };

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
  if (err instanceof JsonLimitError) return Errors.jsonLimit(err);
  if (err && typeof err === 'object') return fromFastify(err as FastifyError) ?? fromOutage(err);
  return undefined;
}

/**
 * A refused request's code and message, told by its one "request completed" line (app.ts) rather
 * than by a line of their own: a request is one line at info.
 */
const refusals = new WeakMap<FastifyRequest, { code: string; error: string }>();
export const refusalOf = (req: FastifyRequest): { code: string; error: string } | undefined => refusals.get(req);

function sendError(err: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const known = toAppError(err);
  if (known && known.statusCode < 500) {
    refusals.set(req, { code: known.code, error: known.message });
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
