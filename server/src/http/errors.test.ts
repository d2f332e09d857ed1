// The error registry: every named error carries a code from ErrorCode, so clients can branch on
// a closed set; the Fastify pass-through keeps Fastify's own FST_ code.
import { AppError, ErrorCode, Errors, toAppError } from './errors';

test('every factory answers with a status and a code of the ErrorCode set', () => {
  const codes = new Set<string>(Object.values(ErrorCode));
  const made: AppError[] = [
    Errors.badRequest('x'), Errors.validation('x'), Errors.clientAborted(), Errors.unauthorized(), Errors.invalidToken(),
    Errors.invalidCredentials(), Errors.invalidApiKey(), Errors.mfaFailed('x'), Errors.forbidden(), Errors.notFound(),
    Errors.methodNotAllowed('PUT', '/x', ['GET']), Errors.conflict('x'), Errors.payloadTooLarge('x'), Errors.uriTooLong(256),
    Errors.unsupportedMediaType(), Errors.rangeNotSatisfiable(10), Errors.tooManyRequests(5), Errors.notImplemented('op'), Errors.unavailable(),
  ];
  for (const e of made) expect({ code: e.code, known: codes.has(e.code), status: e.statusCode >= 400 }).toEqual({ code: e.code, known: true, status: true });
  expect(Errors.rangeNotSatisfiable(10).headers).toEqual({ 'content-range': 'bytes */10' });
  expect(Errors.invalidCredentials().message).toBe('Invalid email or password');
});

test('a Fastify client error keeps its status, FST_ code and message', () => {
  const err = Object.assign(new Error('Body is not a stream'), { code: 'FST_ERR_SOMETHING', statusCode: 400 });
  expect(toAppError(err)).toMatchObject({ statusCode: 400, code: 'FST_ERR_SOMETHING', message: 'Body is not a stream' });
});
