// Static deploys end to end through the real app: upload, safe extraction, the atomic switch,
// serving through the gateway, refusals that leave the live site alone, rollback, ownership.
import { buildTestApp, registerDeveloper, type TestApp } from '../helpers/app';
import { createSiteProject, deploy, site, type SiteProject } from './site-helpers';
import { makeZip } from './zips';

let t: TestApp;
let p: SiteProject;
let firstId: string;

const reactApp = (title: string) =>
  makeZip([
    { name: 'my-app/dist/index.html', data: `<!doctype html><title>${title}</title><div id="root"></div><script src="/assets/index-abc12345.js"></script>` },
    { name: 'my-app/dist/assets/index-abc12345.js', data: `console.log(${JSON.stringify(title)});`.repeat(200) },
    { name: 'my-app/dist/robots.txt', data: 'User-agent: *' },
    { name: 'my-app/src/secret.ts', data: 'const key = "do not serve";' },
    { name: 'my-app/dist/.env', data: 'SECRET=1' },
  ]);

async function liveTitle(): Promise<string> {
  const res = await site(t, p, '/');
  return /<title>(.*?)<\/title>/.exec(res.body)?.[1] ?? `(${res.statusCode})`;
}

beforeAll(async () => {
  t = await buildTestApp();
  p = await createSiteProject(t);
});
afterAll(() => t.close());

test('before any deploy the subdomain shows a clear "no site deployed yet" page', async () => {
  const res = await site(t, p, '/');
  expect(res.statusCode).toBe(404);
  expect(res.headers['content-type']).toMatch(/text\/html/);
  expect(res.body).toContain('No site deployed yet');
});

test('a React zip goes live: root folder dist/ inside a wrapper folder, correct types, SPA fallback', async () => {
  const res = await deploy(t, p, reactApp('v1'), 'React');
  expect(res.statusCode).toBe(200);
  const { deployment, message } = res.json();
  expect(message).toBe('Project deployed!');
  expect(deployment).toMatchObject({ type: 'React', status: 'live', live: true, root: 'dist', file_count: 5 });
  firstId = deployment.id;

  expect(await liveTitle()).toBe('v1');
  const js = await site(t, p, '/assets/index-abc12345.js');
  expect(js.statusCode).toBe(200);
  expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
  expect(js.headers['cache-control']).toContain('immutable');
  expect((await site(t, p, '/robots.txt')).headers['content-type']).toMatch(/^text\/plain/);

  // Client routes answer index.html; missing assets are real 404s; files outside dist/ and dotfiles are never served.
  const deep = await site(t, p, '/dashboard/settings/42');
  expect(deep.statusCode).toBe(200);
  expect(deep.body).toContain('<title>v1</title>');
  expect(deep.headers['cache-control']).toBe('no-cache');
  expect((await site(t, p, '/assets/missing-12345678.js')).statusCode).toBe(404);
  expect((await site(t, p, '/src/secret.ts')).statusCode).toBe(404);
  expect((await site(t, p, '/.env')).statusCode).toBe(404);
});

test('ETag and 304, gzip and brotli when accepted', async () => {
  const first = await site(t, p, '/assets/index-abc12345.js');
  const etag = first.headers.etag as string;
  expect(etag).toMatch(/^".+"$/);
  const again = await site(t, p, '/assets/index-abc12345.js', { 'if-none-match': etag });
  expect(again.statusCode).toBe(304);
  expect(again.body).toBe('');

  const br = await site(t, p, '/assets/index-abc12345.js', { 'accept-encoding': 'gzip, deflate, br' });
  expect(br.headers['content-encoding']).toBe('br');
  expect(br.headers.vary).toBe('Accept-Encoding');
  expect(br.rawPayload.length).toBeLessThan(first.rawPayload.length);
  const gz = await site(t, p, '/assets/index-abc12345.js', { 'accept-encoding': 'gzip' });
  expect(gz.headers['content-encoding']).toBe('gzip');
  expect(require('node:zlib').gunzipSync(gz.rawPayload).toString()).toBe(first.body);
});

test('a Static site: no SPA fallback, its own 404.html, clean URLs', async () => {
  const q = await createSiteProject(t, p.dev);
  const zip = makeZip([
    { name: 'index.html', data: '<title>home</title>' },
    { name: 'about.html', data: '<title>about</title>' },
    { name: '404.html', data: '<title>custom 404</title>' },
  ]);
  expect((await deploy(t, q, zip, 'Static')).statusCode).toBe(200);
  expect((await site(t, q, '/about')).body).toContain('about');
  const missing = await site(t, q, '/nope');
  expect(missing.statusCode).toBe(404);
  expect(missing.body).toContain('custom 404');
  expect((await site(t, q, '/', {}, 'POST', 'x')).statusCode).toBe(405);
});

function patch(zip: Buffer, offset: number, bytes: Buffer): Buffer {
  bytes.copy(zip, offset);
  return zip;
}

describe('refused deploys answer 4xx and leave the live site exactly as it was', () => {
  const cases: [string, () => Buffer | undefined, string | undefined, RegExp][] = [
    ['zip-slip (../)', () => makeZip([{ name: 'index.html', data: 'x' }, { name: '../../evil.html', data: 'pwned' }]), 'React', /unsafe path|invalid relative path/i],
    ['absolute path', () => makeZip([{ name: 'index.html', data: 'x' }, { name: '/etc/evil', data: 'pwned' }]), 'React', /absolute path/i],
    ['symlink', () => makeZip([{ name: 'index.html', data: 'x' }, { name: 'link', data: '/etc/passwd', mode: 0o120777 }]), 'React', /symlink/i],
    ['device file', () => makeZip([{ name: 'index.html', data: 'x' }, { name: 'dev', data: '', mode: 0o020644 }]), 'React', /symlink or special/i],
    ['zip bomb (ratio)', () => makeZip([{ name: 'index.html', data: 'x' }, { name: 'zeros.bin', data: Buffer.alloc(20 * 1024 * 1024), deflate: true }]), 'React', /zip bomb/i],
    ['lying sizes', () => makeZip([{ name: 'index.html', data: 'y'.repeat(5000), deflate: true, lieSize: 10 }]), 'Static', /./],
    ['corrupt zip', () => Buffer.from('PK\u0003\u0004 this is not really a zip file at all'), 'React', /not a valid zip/i],
    // Damage the central directory can't show: only the extraction itself can notice these.
    ['bad local file header', () => patch(makeZip([{ name: 'index.html', data: 'x' }]), 0, Buffer.alloc(4)), 'Static', /./],
    ['corrupt deflate data', () => patch(makeZip([{ name: 'index.html', data: 'a'.repeat(4000), deflate: true }]), 30 + 'index.html'.length, Buffer.alloc(8, 0xff)), 'Static', /./],
    ['no index.html', () => makeZip([{ name: 'readme.md', data: 'hi' }]), 'React', /No index\.html/],
    ['missing type', () => makeZip([{ name: 'index.html', data: 'x' }]), undefined, /^Please select a project type\.$/],
    ['wrong type', () => makeZip([{ name: 'index.html', data: 'x' }]), 'Cobol', /Unknown project type/],
    ['no zip', () => undefined, 'React', /^Please upload a zip file\.$/],
  ];
  test.each(cases)('%s', async (_name, zip, type, message) => {
    const before = await t.post(`/project/${p.id}/deployments`, {}, p.dev.token);
    const res = await deploy(t, p, zip(), type);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
    expect(await liveTitle()).toBe('v1');
    const after = await t.post(`/project/${p.id}/deployments`, {}, p.dev.token);
    expect(after.json().live_deployment_id).toBe(before.json().live_deployment_id);
  });

  test('nothing escaped the extraction folder', () => {
    const fs = require('node:fs') as typeof import('node:fs');
    const path = require('node:path') as typeof import('node:path');
    expect(fs.existsSync(path.join(t.dataDir, 'evil.html'))).toBe(false);
    expect(fs.existsSync(path.join(t.dataDir, 'hosting', 'evil.html'))).toBe(false);
    expect(fs.readdirSync(path.join(t.dataDir, 'hosting', 'tmp'))).toEqual([]);
  });

  test('refused zips are recorded as failed deployments with their reason in the log', async () => {
    const { deployments } = (await t.post(`/project/${p.id}/deployments`, {}, p.dev.token)).json();
    const failed = deployments.filter((d: { status: string }) => d.status === 'failed');
    expect(failed.length).toBeGreaterThanOrEqual(7);
    const logs = await t.post(`/project/${p.id}/deployments/${failed[0].id}/logs`, {}, p.dev.token);
    expect(logs.json().build_log).toMatch(/Failed:/);
  });
});

test('a malformed multipart body is a 400 with a message, and the live site stays', async () => {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/project/${p.id}/upload-and-extract-zip/`,
    headers: { authorization: `Bearer ${p.dev.token}`, 'content-type': 'multipart/form-data; boundary=b' },
    payload: '--zzz\r\ngarbage',
  });
  expect(res.statusCode).toBe(400);
  expect(res.json().message).toMatch(/^The multipart body is malformed/);
  expect(await liveTitle()).toBe('v1');
});

test('rollback: an earlier deployment is made live again; failed ones cannot be', async () => {
  const second = await deploy(t, p, reactApp('v2'), 'Vite');
  expect(second.statusCode).toBe(200);
  expect(await liveTitle()).toBe('v2');

  const history = (await t.post(`/project/${p.id}/deployments`, {}, p.dev.token)).json();
  expect(history.live_deployment_id).toBe(second.json().deployment.id);
  expect(history.deployments.find((d: { id: string }) => d.id === firstId)).toMatchObject({ status: 'superseded', live: false });

  const back = await t.post(`/project/${p.id}/deployments/${firstId}/activate`, {}, p.dev.token);
  expect(back.statusCode).toBe(200);
  expect(back.json().deployment).toMatchObject({ id: firstId, live: true, status: 'live' });
  expect(await liveTitle()).toBe('v1');

  const failed = history.deployments.find((d: { status: string }) => d.status === 'failed');
  expect((await t.post(`/project/${p.id}/deployments/${failed.id}/activate`, {}, p.dev.token)).statusCode).toBe(400);
  expect((await t.post(`/project/${p.id}/deployments/00000000-0000-4000-8000-000000000000/activate`, {}, p.dev.token)).statusCode).toBe(404);
});

test('listSites shows the caller\'s projects with their live status', async () => {
  const res = await t.post('/hosting/sites', {}, p.dev.token);
  expect(res.statusCode).toBe(200);
  const mine = res.json().find((s: { project_id: string }) => s.project_id === p.id);
  expect(mine).toMatchObject({ status: 'live', deployment_id: firstId, domain: `${p.subdomain}.localhost` });
});

test('traffic: requests, errors by status with severity, and deployment activity', async () => {
  await site(t, p, '/assets/nope-12345678.css');
  const res = await t.post(`/project/${p.id}/hosting/traffic`, {}, p.dev.token);
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body.traffic).toHaveLength(24);
  expect(body.traffic.reduce((s: number, b: { requests: number }) => s + b.requests, 0)).toBeGreaterThan(10);
  expect(body.errors).toContainEqual(expect.objectContaining({ status: 404, severity: 'low', path: '/assets/nope-12345678.css' }));
  expect(body.activity[0].message).toMatch(/Deployment/);
  const stats = (await t.post(`/project/${p.id}/container-stats/`, {}, p.dev.token)).json();
  expect(stats).toMatchObject({ cpu_percent: 0, mem_percent: 0, status: 'static' });
  expect(stats.tx_mb).toBeGreaterThan(0);
  expect(stats.rx_mb).toBeGreaterThan(0);
});

test('another account cannot deploy to, list, roll back or read stats of the project (404)', async () => {
  const other = await registerDeveloper(t);
  expect((await deploy(t, p, reactApp('hijack'), 'React', other.token)).statusCode).toBe(404);
  for (const op of ['deployments', 'container-stats/', 'hosting/traffic', `deployments/${firstId}/activate`, `deployments/${firstId}/logs`]) {
    expect((await t.post(`/project/${p.id}/${op}`, {}, other.token)).statusCode).toBe(404);
  }
  expect((await t.post('/hosting/sites', {}, other.token)).json()).toEqual([]);
  expect(await liveTitle()).toBe('v1');
});

test('a second API instance (same database and ObjectStore, its own disk) serves the live site', async () => {
  const { buildApp } = require('../../server/src/app') as typeof import('../../server/src/app');
  const { loadConfig } = require('../../server/src/config') as typeof import('../../server/src/config');
  const fs = require('node:fs') as typeof import('node:fs');
  const os = require('node:os') as typeof import('node:os');
  const path = require('node:path') as typeof import('node:path');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-second-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x', LOG_LEVEL: 'silent', PASSWORD_HASH_COST: '12' }), webDir: undefined };
  const second = await buildApp(config, { database: t.database, objectStore: t.app.deps.objectStore, logger: false });
  try {
    const res = await second.inject({ method: 'GET', url: '/deep/link', headers: { host: p.host } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>v1</title>');
    expect(fs.readdirSync(path.join(dataDir, 'hosting', 'cache')).length).toBe(1);
  } finally {
    await second.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the platform itself still answers on its own host and on unknown subdomains', async () => {
  expect((await t.app.inject({ method: 'GET', url: '/api/health', headers: { host: 'localhost:3000' } })).statusCode).toBe(200);
  expect((await t.app.inject({ method: 'GET', url: '/api/health', headers: { host: 'nosuchsite.localhost:3000' } })).statusCode).toBe(200);
});

test('deleting the project removes its stored files', async () => {
  const q = await createSiteProject(t, p.dev);
  expect((await deploy(t, q, reactApp('gone'), 'React')).statusCode).toBe(200);
  const keys = async () => {
    const out: string[] = [];
    for await (const o of t.app.deps.objectStore.list(`sites/${q.id}/`)) out.push(o.key);
    return out;
  };
  expect(await keys()).toEqual([`sites/${q.id}/${(await t.post(`/project/${q.id}/deployments`, {}, q.dev.token)).json().live_deployment_id}/archive.zip`]);
  expect((await t.post(`/project/${q.id}/delete`, { confirm: q.subdomain }, q.dev.token)).statusCode).toBe(200);
  expect(await keys()).toEqual([]);
});
