// The contract: every operation in openapi.yaml is routed; the test prints how many have a
// handler. Aliases answer like their canonical paths.
import { operations } from '../server/src/generated/operations';
import { buildTestApp, type TestApp } from './helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

test('every operation of openapi.yaml is routed under /api', () => {
  const routes = t.app.printRoutes({ commonPrefix: false });
  for (const op of operations) {
    const fastifyPath = op.path.replace(/\{(\w+)\}/g, ':$1');
    expect(t.app.hasRoute({ method: op.method, url: '/api' + fastifyPath })).toBe(true);
  }
  expect(routes.length).toBeGreaterThan(0);
});

test('reports implemented operations; the others answer 501 with a message', async () => {
  const missing = t.app.operationsWithoutHandler;
  // eslint-disable-next-line no-console
  console.log(`contract: ${operations.length - missing.length} of ${operations.length} operations implemented; without a handler: ${missing.join(', ') || 'none'}`);
  for (const id of missing) {
    const op = operations.find((o) => o.operationId === id)!;
    const res = await t.app.inject({ method: op.method, url: '/api' + op.path.replace(/\{(\w+)\}/g, 'x') });
    expect([401, 501]).toContain(res.statusCode);
    expect(typeof res.json().message).toBe('string');
  }
});

test('the spec is served as YAML and JSON, and Swagger UI at /api/docs', async () => {
  const yaml = await t.app.inject({ method: 'GET', url: '/api/openapi.yaml' });
  expect(yaml.statusCode).toBe(200);
  expect(yaml.body).toContain('operationId: verifyToken');
  const json = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(json.json().paths['/verify-token'].post.operationId).toBe('verifyToken');
  const docs = await t.app.inject({ method: 'GET', url: '/api/docs/' });
  expect(docs.statusCode).toBe(200);
  expect(docs.body).toContain('swagger');
});

test('unknown /api routes are JSON 404s', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/does-not-exist' });
  expect(res.statusCode).toBe(404);
  expect(res.json().message).toMatch(/not found/);
});

test('health reports the database', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/health' });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ status: 'ok', database: { status: 'up' } });
});
