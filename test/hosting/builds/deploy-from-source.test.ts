// Builds from source through the API: a source upload answers 202 and builds in the background;
// its log streams as Server-Sent Events from the database; it goes live only when the build
// succeeds, and a failed build or one past a limit leaves the live site as it was. Build settings
// are the owner's, and another account reaches none of it.
import { buildTestApp, type TestApp } from '../../helpers/app';
import { createSiteProject, deploy, site, type SiteProject } from '../site-helpers';
import { makeZip } from '../zips';
import { onPlan } from '../../helpers/factories';
import { probeSandbox } from '../../../server/src/modules/hosting/runtime/sandbox';

const sandbox = probeSandbox();
if (!sandbox.ok) console.warn(`builds from source skipped: ${sandbox.problem}`);
const describeSandboxed = sandbox.ok ? describe : describe.skip;

let t: TestApp;
let p: SiteProject;
let other: SiteProject;

/** The log stream of a deployment, read to its end (the stream closes when the build ends). */
async function follow(project: SiteProject, deploymentId: string, token = project.dev.token) {
  const res = await t.app.inject({ method: 'GET', url: `/api/project/${project.id}/deployments/${deploymentId}/log-stream`, headers: { authorization: `Bearer ${token}` } });
  const events = res.statusCode === 200 ? parseSse(res.payload) : [];
  return { res, events, text: events.filter((e) => e.event === 'log').map((e) => e.data.text).join(''), end: events.find((e) => e.event === 'end')?.data };
}

function parseSse(payload: string): { event: string; data: { text?: string; status?: string; error?: string | null } }[] {
  return payload
    .split('\n\n')
    .filter((frame) => frame.startsWith('event:'))
    .map((frame) => {
      const event = /^event: (.*)$/m.exec(frame)![1];
      const data = JSON.parse(/^data: (.*)$/m.exec(frame)![1]);
      return { event, data };
    });
}

const settings = (project: SiteProject, body: object, token = project.dev.token) => t.post(`/project/${project.id}/hosting/build-settings/set`, body, token);

beforeAll(async () => {
  t = await buildTestApp({ BUILD_TIMEOUT_SECONDS: '3' });
  p = await createSiteProject(t);
  await onPlan(t, p.dev, 'enterprise');
  other = await createSiteProject(t);
}, 60_000);
afterAll(() => t.close(), 30_000);

describe('build settings', () => {
  test('are read with the limits, saved, tidied, and a folder leaving the upload is refused', async () => {
    const empty = await t.post(`/project/${p.id}/hosting/build-settings`, {}, p.dev.token);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ root_directory: null, install_command: null, build_command: null, start_command: null, output_directory: null, limits: { timeout_seconds: 3, memory_mb: 2048, disk_mb: 4096 } });

    const saved = await settings(p, { root_directory: './apps/web/', build_command: '  npm run build:prod ', output_directory: '' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().settings).toMatchObject({ root_directory: 'apps/web', build_command: 'npm run build:prod', output_directory: null, install_command: null });

    for (const bad of [{ root_directory: '../etc' }, { output_directory: '/etc' }, { output_directory: 'dist\\app' }, { root_directory: 'a/../../b' }]) {
      const res = await settings(p, bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/relative|inside the upload|\//);
    }
    expect((await settings(p, { build_command: 'x\ny' })).statusCode).toBe(400);
    for (const nul of [{ build_command: 'npm\u0000run' }, { root_directory: 'app\u0000' }, { output_directory: '\u0000' }]) {
      const res = await settings(p, nul);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    }
    expect((await settings(p, { start_command: 'x'.repeat(1025) })).statusCode).toBe(400);
    expect((await settings(p, { unknown: 1 })).statusCode).toBe(400);
    // Nothing of the refused calls was written.
    expect((await t.post(`/project/${p.id}/hosting/build-settings`, {}, p.dev.token)).json().root_directory).toBe('apps/web');

    // Another account: no access, no leak.
    expect((await t.post(`/project/${p.id}/hosting/build-settings`, {}, other.dev.token)).statusCode).toBe(404);
    expect((await settings(p, { build_command: 'evil' }, other.dev.token)).statusCode).toBe(404);
    expect((await t.post(`/project/${p.id}/hosting/build-settings`, {}, p.dev.token)).json().build_command).toBe('npm run build:prod');
    expect((await settings(p, {})).json().settings.root_directory).toBeNull(); // back to detected
  });
});

describeSandboxed('a build from source', () => {
  test('runs in the background, streams its log, and goes live only when it succeeds', async () => {
    const first = await deploy(t, p, makeZip([{ name: 'index.html', data: '<h1>old site</h1>' }]), 'Static');
    expect(first.statusCode).toBe(200);

    // A Static upload builds only when told to; the command runs in the sandbox, not as root.
    expect((await settings(p, { build_command: 'mkdir -p public && echo "<h1>built by $(id -u) in $(pwd)</h1>" > public/index.html && echo building-now', output_directory: 'public' })).statusCode).toBe(200);
    const res = await deploy(t, p, makeZip([{ name: 'package.json', data: JSON.stringify({ name: 'static-build', private: true }) }, { name: 'README.md', data: 'source' }]), 'Static');
    expect(res.statusCode).toBe(202);
    expect(res.json().message).toMatch(/^Build started/);
    expect(res.json().deployment).toMatchObject({ status: 'building', live: false, framework: 'Static' });
    const id = res.json().deployment.id;

    const { text, end } = await follow(p, id);
    expect(end).toEqual({ status: 'live', error: null });
    expect(text).toMatch(/building-now/);
    expect(text).toMatch(/Live/);
    const page = await site(t, p, '/');
    expect(page.statusCode).toBe(200);
    expect(page.payload).toMatch(/<h1>built by (\d+) in \/app<\/h1>/);
    expect(page.payload).not.toMatch(/built by 0 /);

    // A finished build's stream replays the whole log and ends at once.
    const again = await follow(p, id);
    expect(again.text).toBe(text);
    // Another account gets nothing.
    expect((await follow(p, id, other.dev.token)).res.statusCode).toBe(404);
    expect((await follow(p, '00000000-0000-4000-8000-000000000000')).res.statusCode).toBe(404);
  }, 60_000);

  test('a failing build, or one past its time limit, leaves the live site as it was', async () => {
    const live = (await t.post(`/project/${p.id}/deployments`, {}, p.dev.token)).json().live_deployment_id;
    await settings(p, { build_command: 'echo about-to-fail; exit 3', output_directory: 'public' });
    const failing = await deploy(t, p, makeZip([{ name: 'package.json', data: '{"name":"x"}' }]), 'Static');
    expect(failing.statusCode).toBe(202);
    const failed = await follow(p, failing.json().deployment.id);
    expect(failed.end?.status).toBe('failed');
    expect(failed.end?.error).toMatch(/exited with code 3/);
    expect(failed.text).toMatch(/about-to-fail/);
    expect((await site(t, p, '/')).payload).toMatch(/built by/);

    await settings(p, { build_command: 'sleep 30', output_directory: 'public' });
    const slow = await deploy(t, p, makeZip([{ name: 'package.json', data: '{"name":"x"}' }]), 'Static');
    expect(slow.statusCode).toBe(202);
    // While it runs, a second build of the same site is refused (409), and nothing of it is kept.
    const second = await deploy(t, p, makeZip([{ name: 'package.json', data: '{"name":"y"}' }]), 'Static');
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toMatch(/already running/);
    const timedOut = await follow(p, slow.json().deployment.id);
    expect(timedOut.end?.status).toBe('failed');
    expect(timedOut.end?.error).toMatch(/limit of 3 s/);

    const after = (await t.post(`/project/${p.id}/deployments`, {}, p.dev.token)).json();
    expect(after.live_deployment_id).toBe(live);
    expect((await site(t, p, '/')).payload).toMatch(/built by/);
    await settings(p, {});
  }, 60_000);

  test('links a build leaves are never served nor run: the deployment holds regular files only', async () => {
    await settings(p, { build_command: 'mkdir -p public && echo "<h1>links</h1>" > public/index.html && ln -s /etc/passwd public/leak.txt && ln -s .. public/up', output_directory: 'public' });
    const res = await deploy(t, p, makeZip([{ name: 'package.json', data: '{"name":"links"}' }]), 'Static');
    expect(res.statusCode).toBe(202);
    expect((await follow(p, res.json().deployment.id)).end?.status).toBe('live');
    expect((await site(t, p, '/')).payload).toContain('<h1>links</h1>');
    for (const leak of ['/leak.txt', '/up/etc/passwd', '/up/package.json']) {
      const r = await site(t, p, leak);
      expect(r.payload).not.toContain('root:x:0:0');
      expect(r.payload).not.toContain('"links"');
    }

    // A Node site: the link its install made is not in what runs, on this instance or any other.
    await settings(p, { install_command: 'ln -s /etc/passwd leak.txt' });
    const node = await deploy(t, p, makeZip([
      { name: 'package.json', data: '{"name":"node-links","main":"server.js"}' },
      { name: 'server.js', data: `require('http').createServer((q, r) => { let v; try { v = require('fs').readFileSync('leak.txt', 'utf8'); } catch (e) { v = e.code; } r.end(v); }).listen(process.env.PORT, '127.0.0.1');` },
    ]), 'Node');
    expect(node.statusCode).toBe(202);
    const end = await follow(p, node.json().deployment.id);
    expect(end.end).toEqual({ status: 'live', error: null });
    expect((await site(t, p, '/')).payload).toBe('ENOENT');
    await settings(p, {});
  }, 60_000);

  test("the site's variables and secrets reach its build", async () => {
    expect((await t.post(`/project/${p.id}/hosting/env/set`, { variables: [{ name: 'PUBLIC_TITLE', value: 'from the env' }, { name: 'BUILD_TOKEN', value: 's3cr3t-value', secret: true }] }, p.dev.token)).statusCode).toBe(200);
    await settings(p, { build_command: 'mkdir -p out && echo "<h1>$PUBLIC_TITLE</h1><p>${#BUILD_TOKEN}</p>" > out/index.html', output_directory: 'out' });
    const res = await deploy(t, p, makeZip([{ name: 'package.json', data: '{"name":"env"}' }]), 'Static');
    expect(res.statusCode).toBe(202);
    const { end, text } = await follow(p, res.json().deployment.id);
    expect(end?.status).toBe('live');
    expect((await site(t, p, '/')).payload).toContain('<h1>from the env</h1><p>12</p>');
    expect(text).not.toContain('s3cr3t-value'); // the log never shows a secret the build did not print
    await t.post(`/project/${p.id}/hosting/env/unset`, { names: ['PUBLIC_TITLE', 'BUILD_TOKEN'] }, p.dev.token);
    await settings(p, {});
  }, 60_000);

  test('an upload that is already built is served as it came (200), package.json or not', async () => {
    const res = await deploy(t, p, makeZip([{ name: 'package.json', data: JSON.stringify({ scripts: { build: 'vite build' }, devDependencies: { vite: '^7' } }) }, { name: 'dist/index.html', data: '<h1>prebuilt</h1>' }]), 'Vite');
    expect(res.statusCode).toBe(200);
    expect(res.json().deployment).toMatchObject({ status: 'live', framework: null });
    expect((await site(t, p, '/')).payload).toMatch(/prebuilt/);
  }, 30_000);
});
