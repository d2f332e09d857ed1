// A site's environment (site-env.ts) through the real app: set, list, unset; secrets masked in
// every answer and sealed at rest; names and sizes refused with a message and nothing written;
// another account sees nothing. With a sandbox: a running Node site is restarted with the new
// values (here and on a second instance), the owner's variables never reach the platform's own
// wiring, and a PHP site's .env is never served.
import { buildTestApp, registerDeveloper, secondInstance, type TestApp } from '../helpers/app';
import { createSiteProject, deploy, site, type SiteProject } from './site-helpers';
import { makeZip } from './zips';
import { probeSandbox } from '../../server/src/modules/hosting/runtime/sandbox';
import { findTool } from '../../server/src/modules/hosting/runtime/sandbox';
import { siteUrl } from '../../server/src/modules/projects/site-url';

const sandboxed = probeSandbox().ok;
let t: TestApp;
let p: SiteProject;

const env = (proj: SiteProject, token = proj.dev.token) => t.post(`/project/${proj.id}/hosting/env`, {}, token);
const setEnv = (proj: SiteProject, variables: unknown[], token = proj.dev.token) => t.post(`/project/${proj.id}/hosting/env/set`, { variables }, token);
const unsetEnv = (proj: SiteProject, names: string[], token = proj.dev.token) => t.post(`/project/${proj.id}/hosting/env/unset`, { names }, token);

beforeAll(async () => {
  t = await buildTestApp();
  p = await createSiteProject(t);
});
afterAll(() => t.close());

describe('variables and secrets', () => {
  test('set, list and unset; a secret is masked in every answer', async () => {
    expect((await env(p)).json().variables).toEqual([]);
    const set = await setEnv(p, [
      { name: 'API_BASE', value: 'https://api.example.com' },
      { name: 'STRIPE_KEY', value: 'sk_test_plaintext_123', secret: true },
    ]);
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ restarted: false, message: expect.stringMatching(/saved/) });
    expect(set.body).not.toContain('sk_test_plaintext_123');
    const listed = await env(p);
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain('sk_test_plaintext_123');
    expect(listed.json().variables).toEqual([
      { name: 'API_BASE', secret: false, value: 'https://api.example.com', updated_at: expect.any(String) },
      { name: 'STRIPE_KEY', secret: true, value: null, updated_at: expect.any(String) },
    ]);
    expect(listed.json().limits).toMatchObject({ max_variables: 100, max_value_bytes: 32768, max_total_bytes: 65536, reserved: expect.arrayContaining(['PORT', 'PATH', 'NODE_ENV']) });

    // Replacing keeps one row; a secret can become plain and back.
    expect((await setEnv(p, [{ name: 'API_BASE', value: 'https://v2.example.com' }])).statusCode).toBe(200);
    expect((await env(p)).json().variables.find((v: { name: string }) => v.name === 'API_BASE').value).toBe('https://v2.example.com');

    const unset = await unsetEnv(p, ['API_BASE', 'NOT_SET']);
    expect(unset.statusCode).toBe(200);
    expect(unset.json().variables.map((v: { name: string }) => v.name)).toEqual(['STRIPE_KEY']);
  });

  test('a secret is sealed at rest: the stored value is not the plaintext, and opens only for its own row', async () => {
    const q = await createSiteProject(t);
    await setEnv(q, [{ name: 'DB_PASSWORD', value: 'hunter2-very-secret', secret: true }, { name: 'PLAIN', value: 'visible' }]);
    const rows = await t.database.query<{ name: string; value: string; secret: boolean }>('SELECT name, value, secret FROM site_env WHERE project_id = $1 ORDER BY name', [q.id]);
    expect(rows).toHaveLength(2);
    const sealed = rows.find((r) => r.name === 'DB_PASSWORD')!;
    expect(sealed.secret).toBe(true);
    expect(sealed.value).not.toContain('hunter2');
    expect(sealed.value).toMatch(/^v1\./);
    expect(rows.find((r) => r.name === 'PLAIN')!.value).toBe('visible');
    // What runtimes and builds get: the plaintext, from the one function.
    expect((await t.app.hosting.siteEnv(q.id)).vars).toEqual({ DB_PASSWORD: 'hunter2-very-secret', PLAIN: 'visible' });
    // A sealed value copied to another project's row does not open there.
    const other = await createSiteProject(t);
    await setEnv(other, [{ name: 'DB_PASSWORD', value: 'x', secret: true }]);
    await t.database.query('UPDATE site_env SET value = $1 WHERE project_id = $2 AND name = $3', [sealed.value, other.id, 'DB_PASSWORD']);
    await expect(t.app.hosting.siteEnv(other.id)).rejects.toThrow(/another site/);
  });

  test.each([
    [{ name: '1ABC', value: 'x' }, /not a valid variable name/],
    [{ name: 'MY-VAR', value: 'x' }, /not a valid variable name/],
    [{ name: 'A B', value: 'x' }, /not a valid variable name/],
    [{ name: 'PORT', value: '80' }, /PORT is set by the platform/],
    [{ name: 'PATH', value: '/tmp' }, /PATH is set by the platform/],
    [{ name: 'NODE_ENV', value: 'development' }, /NODE_ENV is set by the platform/],
    [{ name: 'node_env', value: 'development' }, /set by the platform/],
    [{ name: 'HOSTBASE_ENV_FILE', value: '/etc/shadow' }, /reserved for the platform/],
    [{ name: 'X'.repeat(129), value: 'x' }, /longer than 128 characters/],
    [{ name: 'BIG', value: 'x'.repeat(32 * 1024 + 1) }, /larger than 32 KiB/],
  ])('refused with a message, and nothing of the call is written (%#)', async (bad, message) => {
    const q = await createSiteProject(t);
    const res = await setEnv(q, [{ name: 'GOOD', value: '1' }, bad]);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
    expect((await env(q)).json().variables).toEqual([]);
  });

  test('sizes are bounded per site: total bytes and number of variables, without half-writes', async () => {
    const q = await createSiteProject(t);
    const chunk = 'y'.repeat(30 * 1024);
    expect((await setEnv(q, [{ name: 'A', value: chunk }, { name: 'B', value: chunk }])).statusCode).toBe(200);
    const over = await setEnv(q, [{ name: 'C', value: chunk }]);
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toMatch(/at most 64 KiB/);
    // Replacing a big one with a small one is fine (the total counts the new value).
    expect((await setEnv(q, [{ name: 'A', value: 'small' }, { name: 'C', value: chunk }])).statusCode).toBe(200);
    expect((await unsetEnv(q, ['A', 'B', 'C'])).statusCode).toBe(200);
    const many = Array.from({ length: 100 }, (_, i) => ({ name: `V${i}`, value: String(i) }));
    expect((await setEnv(q, many)).statusCode).toBe(200);
    const more = await setEnv(q, [{ name: 'ONE_MORE', value: '1' }]);
    expect(more.statusCode).toBe(400);
    expect(more.json().message).toMatch(/at most 100 variables/);
    expect((await setEnv(q, [...many, { name: 'V0', value: 'dup' }])).statusCode).toBe(400); // 101 items: the contract's maxItems
    const dup = await setEnv(q, [{ name: 'V1', value: 'a' }, { name: 'V1', value: 'b' }]);
    expect(dup.statusCode).toBe(400);
    expect(dup.json().message).toMatch(/given twice/);
  });

  test('bad bodies are 400s with a message', async () => {
    for (const body of [{}, { variables: [] }, { variables: [{ name: 'A' }] }, { variables: [{ name: 'A', value: 1 }] }, { variables: [{ name: 'A', value: 'x', extra: 1 }] }]) {
      const res = await t.post(`/project/${p.id}/hosting/env/set`, body, p.dev.token);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    }
    expect((await t.post(`/project/${p.id}/hosting/env/unset`, { names: [] }, p.dev.token)).statusCode).toBe(400);
  });

  test("another account's token: no access, no leak", async () => {
    const q = await createSiteProject(t);
    await setEnv(q, [{ name: 'TOKEN', value: 'mine-only', secret: true }, { name: 'SHOWN', value: 'plain-value' }]);
    const stranger = await registerDeveloper(t);
    for (const res of [
      await env(q, stranger.token),
      await setEnv(q, [{ name: 'TOKEN', value: 'stolen' }], stranger.token),
      await unsetEnv(q, ['TOKEN'], stranger.token),
      await t.post(`/project/${q.id}/hosting/unpublish`, {}, stranger.token),
      await t.post(`/project/${q.id}/hosting/delete`, { confirm: q.subdomain }, stranger.token),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('plain-value');
    }
    expect((await env(q, 'not-a-token')).statusCode).toBe(401);
    expect((await t.app.hosting.siteEnv(q.id)).vars).toEqual({ TOKEN: 'mine-only', SHOWN: 'plain-value' });
  });
});

describe('links', () => {
  test("site links take PUBLIC_URL's scheme and port", async () => {
    expect(siteUrl('http://localhost:3000', 'shop.localhost')).toBe('http://shop.localhost:3000');
    expect(siteUrl('https://hostbase.example.com', 'shop.hostbase.example.com')).toBe('https://shop.hostbase.example.com');
    expect(siteUrl('https://hostbase.example.com:8443/', 'shop.example.com')).toBe('https://shop.example.com:8443');
    expect(siteUrl('http://example.com:80', 'a.example.com')).toBe('http://a.example.com');
    const projects = (await t.post('/projects', {}, p.dev.token)).json();
    expect(projects.find((x: { id: string }) => x.id === p.id).site_url).toBe(`http://${p.subdomain}.localhost:3000`);
    const details = (await t.post('/project/project-details/', { project_id: p.id }, p.dev.token)).json();
    expect(details.site_url).toBe(`http://${p.subdomain}.localhost:3000`);
    const sites = (await t.post('/hosting/sites', {}, p.dev.token)).json();
    expect(sites.find((s: { project_id: string }) => s.project_id === p.id).site_url).toBe(`http://${p.subdomain}.localhost:3000`);
  });
});

describe('unpublish and delete', () => {
  const page = (title: string) => makeZip([{ name: 'index.html', data: `<title>${title}</title>` }, { name: '.env', data: 'SECRET=dotenv-value' }]);

  test('unpublish keeps deployments and can be republished; delete removes the site and its files', async () => {
    const q = await createSiteProject(t);
    const first = (await deploy(t, q, page('one'), 'Static')).json().deployment.id as string;
    expect((await site(t, q, '/')).body).toContain('<title>one</title>');
    expect((await site(t, q, '/.env')).statusCode).toBe(404);
    expect((await site(t, q, '/%2eenv')).statusCode).toBe(404);
    await setEnv(q, [{ name: 'KEPT', value: 'yes' }]);

    const un = await t.post(`/project/${q.id}/hosting/unpublish`, {}, q.dev.token);
    expect(un.statusCode).toBe(200);
    expect(un.json()).toEqual({ message: 'unpublished' });
    const gone = await site(t, q, '/');
    expect(gone.statusCode).toBe(404);
    expect(gone.body).not.toContain('<title>one</title>');
    const history = (await t.post(`/project/${q.id}/deployments`, {}, q.dev.token)).json();
    expect(history.live_deployment_id).toBeNull();
    expect(history.deployments).toHaveLength(1);
    expect((await t.post('/hosting/sites', {}, q.dev.token)).json().find((s: { project_id: string }) => s.project_id === q.id).status).toBe('unpublished');
    expect((await t.post(`/project/${q.id}/hosting/unpublish`, {}, q.dev.token)).statusCode).toBe(200); // again: still fine
    expect((await env(q)).json().variables).toHaveLength(1);

    // Republish by activating the deployment.
    expect((await t.post(`/project/${q.id}/deployments/${first}/activate`, {}, q.dev.token)).statusCode).toBe(200);
    expect((await site(t, q, '/')).body).toContain('<title>one</title>');

    // Delete: the confirmation must be the subdomain.
    const wrong = await t.post(`/project/${q.id}/hosting/delete`, { confirm: 'nope' }, q.dev.token);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toContain(q.subdomain);
    expect((await site(t, q, '/')).statusCode).toBe(200);
    expect((await t.post(`/project/${q.id}/hosting/delete`, {}, q.dev.token)).statusCode).toBe(400);

    const keys = async () => {
      const out: string[] = [];
      for await (const o of t.app.deps.objectStore.list(`sites/${q.id}/`)) out.push(o.key);
      return out;
    };
    expect(await keys()).not.toEqual([]);
    const del = await t.post(`/project/${q.id}/hosting/delete`, { confirm: ` ${q.subdomain.toUpperCase()} ` }, q.dev.token);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: 'deleted' });
    expect((await site(t, q, '/')).body).toContain('No site deployed yet');
    expect((await t.post(`/project/${q.id}/deployments`, {}, q.dev.token)).json().deployments).toEqual([]);
    expect((await env(q)).json().variables).toEqual([]);
    expect(await keys()).toEqual([]);
    const fs = await import('node:fs');
    const path = await import('node:path');
    expect(fs.existsSync(path.join(t.dataDir, 'hosting', 'cache', first))).toBe(false);
    // The project itself stays and can deploy again.
    expect((await t.post('/project/project-details/', { project_id: q.id }, q.dev.token)).statusCode).toBe(200);
    expect((await deploy(t, q, page('two'), 'Static')).statusCode).toBe(200);
    expect((await site(t, q, '/')).body).toContain('<title>two</title>');
  });
});

// ---- with a sandbox: real processes ---------------------------------------------------------

const ENV_SITE = `
const boot = Math.random();
require('http').createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ greeting: process.env.GREETING ?? null, token: process.env.API_TOKEN ?? null, port: process.env.PORT, nodeEnv: process.env.NODE_ENV, file: process.env.HOSTBASE_ENV_FILE ?? null, boot }));
}).listen(process.env.PORT);
`;

/** A failed deploy shows its message (and build log) in the assertion. */
function expectDeployed(res: { statusCode: number; json(): { message?: string } }) {
  expect([res.statusCode, res.statusCode === 200 ? '' : res.json().message]).toEqual([200, '']);
}

(sandboxed ? describe : describe.skip)('a running Node site', () => {
  test('gets its variables, is restarted with new values on change, and keeps the platform\u2019s PORT and NODE_ENV', async () => {
    const q = await createSiteProject(t);
    await setEnv(q, [{ name: 'GREETING', value: 'hello' }, { name: 'API_TOKEN', value: 's3cr3t-token', secret: true }]);
    expectDeployed(await deploy(t, q, makeZip([{ name: 'server.js', data: ENV_SITE }]), 'Node'));
    const first = (await site(t, q, '/')).json();
    expect(first).toMatchObject({ greeting: 'hello', token: 's3cr3t-token', port: '8080', nodeEnv: 'production', file: null });

    const changed = await setEnv(q, [{ name: 'GREETING', value: 'bonjour' }]);
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ restarted: true, message: expect.stringMatching(/restarted/) });
    const second = (await site(t, q, '/')).json();
    expect(second).toMatchObject({ greeting: 'bonjour', token: 's3cr3t-token' });
    expect(second.boot).not.toBe(first.boot); // a new process

    expect((await unsetEnv(q, ['API_TOKEN'])).json().restarted).toBe(true);
    expect((await site(t, q, '/')).json()).toMatchObject({ greeting: 'bonjour', token: null });

    // Unpublish stops the process on this instance.
    expect(t.app.hosting['d'].runtime.projects().some((r: { projectId: string }) => r.projectId === q.id)).toBe(true);
    expect((await t.post(`/project/${q.id}/hosting/unpublish`, {}, q.dev.token)).statusCode).toBe(200);
    expect(t.app.hosting['d'].runtime.projects().some((r: { projectId: string }) => r.projectId === q.id)).toBe(false);
    expect((await site(t, q, '/')).statusCode).toBe(404);
  }, 90_000);

  test('a change made on another instance restarts the process this instance runs', async () => {
    const q = await createSiteProject(t);
    await setEnv(q, [{ name: 'GREETING', value: 'one' }]);
    expectDeployed(await deploy(t, q, makeZip([{ name: 'server.js', data: ENV_SITE }]), 'Node'));
    const b = await secondInstance(t);
    try {
      const onB = () => b.app.inject({ method: 'GET', url: '/', headers: { host: q.host } }).then((r) => r.json());
      expect((await onB()).greeting).toBe('one');
      // Changed through A: B's process is restarted by its next request (after its live-site
      // cache) or by its reconcile pass, whichever comes first.
      expect((await setEnv(q, [{ name: 'GREETING', value: 'two' }])).statusCode).toBe(200);
      let seen = '';
      for (let i = 0; i < 100 && seen !== 'two'; i++) {
        await new Promise((r) => setTimeout(r, 200));
        seen = (await onB()).greeting;
      }
      expect(seen).toBe('two');
      // Unpublished through A: B stops its process without being asked (reconcile).
      await b.app.hosting.reconcile();
      expect(b.app.hosting['d'].runtime.projects().some((r: { projectId: string }) => r.projectId === q.id)).toBe(true);
      expect((await t.post(`/project/${q.id}/hosting/unpublish`, {}, q.dev.token)).statusCode).toBe(200);
      await b.app.hosting.reconcile();
      expect(b.app.hosting['d'].runtime.projects().some((r: { projectId: string }) => r.projectId === q.id)).toBe(false);
    } finally {
      await b.close();
    }
  }, 90_000);

  (findTool('php') ? test : test.skip)("a PHP site's .env and other dotfiles are never served", async () => {
    const q = await createSiteProject(t);
    const zip = makeZip([
      { name: 'index.php', data: '<?php echo "php says " . getenv("GREETING");' },
      { name: '.env', data: 'SECRET=dotenv-value' },
      { name: '.git/config', data: '[core] secret' },
      { name: '.well-known/security.txt', data: 'Contact: mailto:sec@example.com' },
    ]);
    await setEnv(q, [{ name: 'GREETING', value: 'hi' }]);
    expectDeployed(await deploy(t, q, zip, 'PHP'));
    expect((await site(t, q, '/')).body).toBe('php says hi');
    for (const url of ['/.env', '/%2eenv', '/%2Eenv', '/.git/config', '/sub/../.env', '/.well-known/../.env']) {
      const res = await site(t, q, url);
      expect([url, res.statusCode]).toEqual([url, 404]);
      expect(res.body).not.toContain('dotenv-value');
    }
    expect((await site(t, q, '/.well-known/security.txt')).body).toContain('Contact');
  }, 90_000);
});
