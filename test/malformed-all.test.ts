// Bad input to every JSON operation of the contract, authenticated as the owner of a real
// project (so the request gets past the security check): always a 4xx JSON with a message,
// never a 500, and a status the contract lists for that operation.
import { operations } from '../server/src/generated/operations';
import { loadSpec } from '../server/src/http/contract';
import { buildTestApp, registerDeveloper, type TestApp } from './helpers/app';

jest.setTimeout(60_000);
let t: TestApp;
let token: string;
let projectId: string;
beforeAll(async () => {
  t = await buildTestApp();
  token = (await registerDeveloper(t)).token;
  projectId = (await t.post('/create-project', { projectName: 'P', subdomain: `bad-input-${Date.now()}` }, token)).json().project.id;
});
afterAll(() => t.close());

const spec = loadSpec();
const jsonOps = operations.filter((op) => {
  const item = spec.paths[op.path]?.[op.method.toLowerCase()];
  return Boolean(item?.requestBody?.content?.['application/json']);
});

const payloads: { name: string; type: string; body: string }[] = [
  { name: 'broken JSON', type: 'application/json', body: '{"a":' },
  { name: 'a JSON array', type: 'application/json', body: '[1,2]' },
  { name: 'a JSON string', type: 'application/json', body: '"x"' },
  { name: 'JSON null', type: 'application/json', body: 'null' },
  { name: 'text/plain', type: 'text/plain', body: 'hello' },
  { name: 'a form', type: 'application/x-www-form-urlencoded', body: 'a=1' },
];

const cases = jsonOps.flatMap((op) => payloads.map((p) => ({ id: op.operationId, method: op.method, path: op.path, ...p })));

test.each(cases)('$id with $name → 4xx JSON, listed', async ({ method, path, type, body }) => {
  const url = '/api' + path.replace('{projectId}', projectId).replace(/\{(\w+)\}/g, 'x');
  const res = await t.app.inject({
    method: method as 'POST',
    url,
    payload: body,
    headers: { 'content-type': type, authorization: `Bearer ${token}`, 'x-api-key': 'hb_auth_invalid' },
  });
  expect(res.statusCode).toBeGreaterThanOrEqual(400);
  expect(res.statusCode).toBeLessThan(500);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(typeof res.json().message).toBe('string');
  expect(Object.keys(spec.paths[path][method.toLowerCase()].responses ?? {})).toContain(String(res.statusCode));
});
