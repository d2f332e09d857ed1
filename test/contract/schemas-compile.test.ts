// Route schemas are compiled on first use (server/src/http/lazy-schemas.ts), so a schema that
// ajv or fast-json-stringify can't compile would otherwise only fail on the first request that
// meets it. Here every route's validators and serializers are compiled up front.
import Fastify from 'fastify';
import { compileAllSchemas } from '../../server/src/http/lazy-schemas';
import { registerValidation } from '../../server/src/http/validation';
import { operations } from '../../server/src/generated/operations';
import { buildTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

test("every schema of the contract's routes compiles", () => {
  // At least one request part and one answer per operation.
  expect(compileAllSchemas(t.app)).toBeGreaterThan(operations.length * 2);
});

test('a schema that cannot compile fails there, and a route compiles its validator on first use only', async () => {
  const app = Fastify();
  registerValidation(app);
  app.post('/good', { schema: { body: { type: 'object', properties: { n: { type: 'integer' } } } } }, async (req) => ({ got: req.body }));
  app.post('/bad', { schema: { body: { type: 'nonsense' } } }, async () => ({}));
  await app.ready();
  // Nothing compiled yet: the bad schema has not failed the start.
  const ok = await app.inject({ method: 'POST', url: '/good', payload: { n: 1 } });
  expect(ok.statusCode).toBe(200);
  const refused = await app.inject({ method: 'POST', url: '/good', payload: { n: 'x' } });
  expect(refused.statusCode).toBe(400);
  expect(refused.json().message).toBe('body/n must be integer');
  expect(() => compileAllSchemas(app)).toThrow(/type/);
  await app.close();
});
