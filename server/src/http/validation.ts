// Request validation: JSON bodies are checked strictly (a number is not a string: a password of
// 12345678 is a 400, not silently "12345678"), while path and query values, which are always
// text on the wire, are coerced to the schema's types.
import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

const base: Options = { useDefaults: true, removeAdditional: false, allErrors: false, addUsedSchema: false, strict: false };

export function registerValidation(app: FastifyInstance): void {
  const strict = new Ajv({ ...base, coerceTypes: false });
  const coercing = new Ajv({ ...base, coerceTypes: 'array' });
  addFormats(strict);
  addFormats(coercing);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema));
}
