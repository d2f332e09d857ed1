// The API reference (/api/docs) is Hostbase's: its name and mark, tags named by feature for a
// person, the aliases under Deprecated, and an Authorize dialog offering only the current ways to
// authenticate; the downloadable contract (/api/openapi.json) stays whole.
import { buildTestApp, type TestApp } from '../helpers/app';
import { LOGO_SVG } from '../../server/src/http/docs-brand';

type Op = { operationId?: string; tags?: string[]; deprecated?: boolean; security?: Record<string, string[]>[] };
type Doc = { tags: { name: string }[]; paths: Record<string, Record<string, Op>>; components: { securitySchemes: Record<string, unknown> } };

jest.setTimeout(60_000);
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });
const operations = (doc: Doc) => Object.values(doc.paths).flatMap((item) => Object.values(item).filter((op) => op?.operationId));

test("the page carries Hostbase's title, icon and logo, not the framework's", async () => {
  const page = await get('/api/docs');
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain('<title>Hostbase API reference</title>');
  expect(page.body).toContain('favicon.svg');
  expect((await get('/api/docs/static/theme/favicon.svg')).headers['content-type']).toContain('image/svg+xml');
  const init = await get('/api/docs/static/swagger-initializer.js');
  expect(init.body).toContain(`data:image/svg+xml;base64,${Buffer.from(LOGO_SVG).toString('base64')}`);
  // It reads the docs' view of the contract.
  expect(init.body).toContain('/api/docs/json');
});

test('Authorize offers the current schemes only; the contract a client downloads keeps every one', async () => {
  const view = (await get('/api/docs/json')).json() as Doc;
  expect(Object.keys(view.components.securitySchemes).sort()).toEqual(['bearerAuth', 'endUserToken', 'projectKey']);
  for (const op of operations(view)) {
    for (const alt of op.security ?? []) expect({ id: op.operationId, schemes: Object.keys(alt).filter((s) => !(s in view.components.securitySchemes)) }).toEqual({ id: op.operationId, schemes: [] });
  }
  const whole = (await get('/api/openapi.json')).json() as Doc;
  expect(Object.keys(whole.components.securitySchemes).sort()).toEqual(['authKey', 'bearerAuth', 'bucketKey', 'endUserBearer', 'endUserToken', 'projectKey']);
});

test('tags are features named for a person; the aliases sit under Deprecated, marked deprecated', async () => {
  const view = (await get('/api/docs/json')).json() as Doc;
  const names = view.tags.map((tag) => tag.name);
  expect(names).toEqual(expect.arrayContaining(['Storage', 'Database', 'End users', 'End-user auth', 'Mail', 'Hosting', 'Deprecated']));
  for (const name of names) expect(name).toMatch(/^[A-Z][a-z-]*( [a-z-]+)*$/);
  for (const op of operations(view)) {
    expect({ id: op.operationId, tags: op.tags?.every((tag) => names.includes(tag)) }).toEqual({ id: op.operationId, tags: true });
    const alias = op.operationId!.endsWith('Alias');
    expect({ id: op.operationId, deprecated: op.deprecated === true, tag: op.tags?.[0] === 'Deprecated' }).toEqual({ id: op.operationId, deprecated: alias, tag: alias });
  }
});
