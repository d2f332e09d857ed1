// The contract: every operation in openapi.yaml is routed; the test prints how many have a
// handler. Aliases answer like their canonical paths.
import { operations } from '../server/src/generated/operations';
import { loadSpec, MAX_PATH_PARAM_LENGTH } from '../server/src/http/contract';
import { buildTestApp, registerDeveloper, type TestApp } from './helpers/app';

jest.setTimeout(60_000);
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

test('every operation lists the statuses the platform can answer, each error with the one error schema', () => {
  const spec = loadSpec() as unknown as { paths: Record<string, Record<string, any>>; components: { responses: Record<string, any> } };
  const resolve = (r: { $ref?: string }) => (r.$ref ? spec.components.responses[r.$ref.split('/').pop()!] : r);
  const problems: string[] = [];
  for (const o of operations) {
    const op = spec.paths[o.path][o.method.toLowerCase()];
    const statuses = Object.keys(op.responses);
    const required = ['405', '408'];
    if (o.path.includes('{')) required.push('400', '414');
    if (o.method !== 'GET') required.push('400', '413', '415');
    const secured = (op.security ?? [{ bearerAuth: [] }]).some((alt: object) => Object.keys(alt).length > 0);
    if (secured) required.push('401');
    if (t.app.operationsWithoutHandler.includes(o.operationId)) required.push('501');
    for (const status of required) if (!statuses.includes(status)) problems.push(`${o.operationId}: ${status} not listed`);
    // Health answers 503 with its own report (database down), by design.
    for (const status of statuses.filter((st) => Number(st) >= 400 && !(o.operationId === 'getHealth' && st === '503'))) {
      const schema = resolve(op.responses[status]).content?.['application/json']?.schema;
      if (schema?.$ref !== '#/components/schemas/Error') problems.push(`${o.operationId}: ${status} is not the Error schema`);
    }
    for (const param of op.parameters ?? []) {
      const p = param.$ref ? (loadSpec() as any).components.parameters[param.$ref.split('/').pop()] : param;
      const schema = p.schema.$ref ? (loadSpec() as any).components.schemas[p.schema.$ref.split('/').pop()] : p.schema;
      if (p.in === 'path' && !(schema.maxLength <= MAX_PATH_PARAM_LENGTH)) problems.push(`${o.operationId}: path parameter ${p.name} may be longer than the router's ${MAX_PATH_PARAM_LENGTH}`);
    }
  }
  expect(problems).toEqual([]);
});

test('a method the path does not take is 405 with Allow, in the error shape (TRACE /api/verify_user)', async () => {
  const res = await t.app.inject({ method: 'TRACE', url: '/api/verify_user' });
  expect({ status: res.statusCode, allow: res.headers.allow, body: res.json() }).toEqual({
    status: 405,
    allow: 'POST',
    body: { message: 'Method TRACE is not allowed on /api/verify_user; use POST', code: 'METHOD_NOT_ALLOWED' },
  });
  const get = await t.app.inject({ method: 'GET', url: '/api/storage/v1/objects/abc', headers: {} });
  expect(get.statusCode).toBe(401); // the path's own method still reaches its route
  const put = await t.app.inject({ method: 'PUT', url: '/api/storage/v1/objects/abc' });
  expect({ status: put.statusCode, allow: put.headers.allow }).toEqual({ status: 405, allow: 'DELETE, GET, HEAD, OPTIONS' });
  const options = await t.app.inject({ method: 'PATCH', url: '/api/auth/v1/signup' });
  expect({ status: options.statusCode, allow: options.headers.allow }).toEqual({ status: 405, allow: 'POST, OPTIONS' });
});

test('every routed path outside the contract answers another method with 405 and Allow too; unrouted paths are 404s', async () => {
  const cases: [string, string, string | undefined][] = [
    ['/api/openapi.json', 'QUERY', 'GET, HEAD'],
    ['/api/openapi.yaml', 'DELETE', 'GET, HEAD'],
    ['/api/docs/static/index.html', 'QUERY', 'GET, HEAD'],
    ['/s3/object-storage/seg/obj', 'POST', 'GET, HEAD'],
    ['/api/nothing-here', 'QUERY', undefined],
    ['/api/auth/v1/nothing-here', 'QUERY', undefined],
  ];
  for (const [url, method, allow] of cases) {
    const res = await t.app.inject({ method: method as 'POST', url, headers: { 'content-type': 'application/json' }, payload: '{"a":1}' });
    expect({ url, status: res.statusCode, allow: res.headers.allow, code: res.json().code }).toEqual({ url, status: allow ? 405 : 404, allow, code: allow ? 'METHOD_NOT_ALLOWED' : 'NOT_FOUND' });
  }
  // Before the body is read: neither a missing Content-Type nor an odd one nor a large body decides.
  for (const headers of [{}, { 'content-type': 'application/x-nothing' }]) {
    const res = await t.app.inject({ method: 'QUERY' as 'POST', url: '/api/verify_user', headers, payload: 'x'.repeat(2 * 1024 * 1024) });
    expect({ status: res.statusCode, allow: res.headers.allow }).toEqual({ status: 405, allow: 'POST' });
  }
});

test('a path parameter over the router limit is 414 in the error shape, saying what is wrong', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/verify/' + 'x'.repeat(MAX_PATH_PARAM_LENGTH + 1) });
  expect({ status: res.statusCode, body: res.json() }).toEqual({
    status: 414,
    body: { message: `A path parameter is longer than ${MAX_PATH_PARAM_LENGTH} characters`, code: 'URI_TOO_LONG' },
  });
  const badEncoding = await t.app.inject({ method: 'GET', url: '/api/verify/%E0%A4%A' });
  expect({ status: badEncoding.statusCode, message: badEncoding.json().message }).toEqual({ status: 400, message: 'The URL has a malformed path component (bad percent-encoding)' });
});

test('a NUL in stored text (project, account name, contact form) is a 400 naming the field, and nothing is written', async () => {
  const dev = await registerDeveloper(t);
  const cases: [string, unknown, string, string?][] = [
    ['/create-project', { projectName: 'a\u0000b', subdomain: `nul-${Date.now()}` }, 'body/projectName', dev.token],
    ['/create-project', { projectName: 'P', subdomain: `nul2-${Date.now()}`, description: 'x\u0000' }, 'body/description', dev.token],
    ['/register', { name: 'a\u0000b', email: 'nul@example.com', password: 'long enough pass' }, 'body/name'],
    ['/account-details', { name: 'a\u0000b' }, 'body/name', dev.token],
    ['/contact', { name: 'N', email: 'n@example.com', message: 'hi\u0000' }, 'body/message'],
    ['/contact', { name: 'N', email: 'n@example.com', message: 'lone \ud83d surrogate' }, 'body/message'],
  ];
  for (const [path, body, field, token] of cases) {
    const res = await t.post(path, body, token);
    expect({ path, status: res.statusCode, message: res.json().message }).toEqual({ path, status: 400, message: expect.stringMatching(new RegExp(`^${field} must (not contain NUL characters|be valid Unicode text)`)) });
  }
  // However deep it sits within the JSON depth limit (the check walks without recursion); deeper
  // than the limit the body is refused before it is parsed.
  const nul = (levels: number) => `{"name":"N","email":"n@example.com","message":"hi\\u0000","extra":${'['.repeat(levels)}"a\\u0000"${']'.repeat(levels)}}`;
  const nested = await t.app.inject({ method: 'POST', url: '/api/contact', headers: { 'content-type': 'application/json' }, payload: nul(98) });
  expect({ status: nested.statusCode, message: nested.json().message }).toEqual({ status: 400, message: 'body/message must not contain NUL characters (\\u0000)' });
  const deep = await t.app.inject({ method: 'POST', url: '/api/contact', headers: { 'content-type': 'application/json' }, payload: nul(5000) });
  expect({ status: deep.statusCode, message: deep.json().message }).toEqual({ status: 400, message: 'body nests arrays and objects deeper than 100 levels (the limit)' });
  expect((await t.post('/projects', {}, dev.token)).json()).toEqual([]);
  expect((await t.post('/account-details', {}, dev.token)).json().name).toBe(dev.name);
  expect((await t.post('/register', { name: 'Nul', email: 'nul@example.com', password: 'long enough pass' })).statusCode).toBe(200);
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
