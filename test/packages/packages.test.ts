// The packages as a new user meets them: `npm run pack` makes the tarballs; `npx hostbase` works in
// the repository right after `npm install`; `hostbase init`, `link` and `deploy` run in an app's
// folder against a started server and print the site_url the platform answers; an app outside the
// repository installs the client from its tarball (offline: it has no dependencies) and runs the
// first-app lines of docs/sdk.md against the server, and an unreachable platform is a
// HostbaseError with its cause. One file, run in order: packing rebuilds the packages' dist/.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, registerDeveloper, type Developer, type Project } from '../helpers/factories';
import { request } from '../helpers/http-request';

jest.setTimeout(300_000);

const root = path.resolve(__dirname, '..', '..');
const version = (name: string) => JSON.parse(fs.readFileSync(path.join(root, 'packages', name, 'package.json'), 'utf8')).version as string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], o: { cwd: string; env?: Record<string, string | undefined>; input?: string }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: o.cwd, env: { ...process.env, ...o.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(o.input ?? '');
  });
}

/** A port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

let t: TestApp;
let url: string;
let dev: Developer;
let home: string;
let tarballs: string;

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-packages-'));
  const packed = await run('npm', ['run', 'pack'], { cwd: root });
  expect(packed).toMatchObject({ code: 0 });
  tarballs = path.join(root, 'dist/packages');
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  dev = await registerDeveloper(t);
});
afterAll(async () => {
  await t?.close();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

describe('npm run pack', () => {
  test('leaves both tarballs; the client has no dependencies and only the app-facing API\'s types', async () => {
    const client = path.join(tarballs, `hostbase-client-${version('client')}.tgz`);
    expect(fs.existsSync(client)).toBe(true);
    expect(fs.existsSync(path.join(tarballs, `hostbase-cli-${version('cli')}.tgz`))).toBe(true);
    const listed = await run('tar', ['-tzf', client], { cwd: root });
    const files = listed.stdout.split('\n').filter(Boolean);
    expect(files).toEqual(expect.arrayContaining(['package/dist/index.js', 'package/dist/index.d.ts', 'package/dist/cjs/index.js', 'package/package.json', 'package/README.md']));
    expect(files.some((f) => /cli|zip|fflate/.test(f))).toBe(false);
    const types = fs.readFileSync(path.join(root, 'packages/client/dist/index.d.ts'), 'utf8') + fs.readFileSync(path.join(root, 'packages/client/dist/generated/openapi.d.ts'), 'utf8');
    expect(types).toContain('"/auth/v1/signup"');
    expect(types).not.toContain('"/projects"');
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'packages/client/package.json'), 'utf8'));
    expect(pkg.dependencies ?? {}).toEqual({});
  });
});

describe('the CLI', () => {
  test('npx hostbase --help works in the repository', async () => {
    const r = await run('npx', ['--no-install', 'hostbase', '--help'], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('hostbase deploy [folder]');
    expect(r.stdout).toContain('Exit codes:');
    const one = await run('npx', ['--no-install', 'hostbase', 'deploy', '--help'], { cwd: root });
    expect(one).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: hostbase deploy \[folder\]/) });
    expect(await run('npx', ['--no-install', 'hostbase', 'frobnicate'], { cwd: root })).toMatchObject({ code: 2 });
  });

  test('init, link and deploy in an app\'s folder print the site_url the platform answers, with its port', async () => {
    const project = await createProject(t, dev);
    await createProject(t, dev); // two projects: deploy needs the link
    const answered = (await t.post('/projects', {}, dev.token)).json().find((p: { id: string }) => p.id === project.id).site_url as string;
    expect(answered).toMatch(/^http:\/\/[^/]+:\d+$/);
    const app = fs.mkdtempSync(path.join(home, 'app-'));
    fs.mkdirSync(path.join(app, 'public'));
    fs.writeFileSync(path.join(app, 'public/index.html'), '<h1>from the cli</h1>');
    const bin = path.join(root, 'node_modules/.bin/hostbase');
    const env = { HOSTBASE_TOKEN: dev.token, HOSTBASE_URL: url, HOSTBASE_CONFIG_DIR: path.join(home, 'nobody') };

    const init = await run(bin, ['init', 'public', '--json'], { cwd: app, env });
    expect(init.code).toBe(0);
    expect(JSON.parse(init.stdout).config).toEqual({ url, folder: 'public' });
    const unlinked = await run(bin, ['deploy'], { cwd: app, env });
    expect(unlinked).toMatchObject({ code: 1, stderr: expect.stringContaining('You have 2 projects') });

    const link = await run(bin, ['link', '--project', project.subdomain], { cwd: app, env });
    expect(link.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(app, 'hostbase.json'), 'utf8'))).toEqual({ url, folder: 'public', project: project.id, subdomain: project.subdomain });

    const human = await run(bin, ['deploy'], { cwd: app, env });
    expect(human.stderr).toBe('');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`Deployment \\S+ is live: ${answered.replace(/\./g, '\\.')}\n`));

    const json = await run(bin, ['deploy', '--json'], { cwd: path.join(app, 'public'), env });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'live', site_url: answered, project: { id: project.id } });
    const served = await request(Number(new URL(url).port), 'GET', '/', undefined, { host: new URL(answered).host });
    expect(served.body).toContain('from the cli');
  });

  test('npx hostbase deploy of a folder in the repository; an unreachable platform is exit 3', async () => {
    // A developer with one project: no --project needed.
    const owner = await registerDeveloper(t);
    const project: Project = await createProject(t, owner);
    const site = fs.mkdtempSync(path.join(home, 'site-'));
    fs.writeFileSync(path.join(site, 'index.html'), 'hi');
    const env = { HOSTBASE_TOKEN: owner.token, HOSTBASE_URL: url, HOSTBASE_CONFIG_DIR: path.join(home, 'nobody') };
    const r = await run('npx', ['--no-install', 'hostbase', 'deploy', site, '--url', url], { cwd: root, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`is live: http://${project.subdomain}\\.localhost:3000\n`));
    const down = `http://127.0.0.1:${await closedPort()}`;
    const unreachable = await run('npx', ['--no-install', 'hostbase', 'projects', '--url', down, '--json'], { cwd: root, env });
    expect(unreachable.code).toBe(3);
    expect(JSON.parse(unreachable.stdout).error.message).toContain(`Could not reach Hostbase at ${down}`);
  });
});

describe('an app outside the repository', () => {
  let app: string;

  beforeAll(async () => {
    app = fs.mkdtempSync(path.join(home, 'my-app-'));
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'my-app', private: true, type: 'module' }));
    const installed = await run('npm', ['install', path.join(tarballs, `hostbase-client-${version('client')}.tgz`), '--offline', '--no-audit', '--no-fund'], { cwd: app });
    expect(installed).toMatchObject({ code: 0 });
  });

  test('runs the first-app lines of docs/sdk.md against the server: a user, a row, a file read back', async () => {
    const project = await createProject(t, dev);
    const made = await t.post(`/project/${project.id}/database/create_table`, { name: 'notes', columns: [{ name: 'body', type: 'text' }], access: 'owner' }, dev.token);
    expect(made.statusCode).toBe(200);
    const rule = await t.post(`/project/${project.id}/object-storage/rules/set`, { folder: '', access: 'owner' }, dev.token);
    expect(rule.statusCode).toBe(200);
    const doc = fs.readFileSync(path.join(root, 'docs/sdk.md'), 'utf8');
    const snippet = /<!-- first-app:[^>]*-->\n```js\n([\s\S]*?)```/.exec(doc)![1];
    expect(snippet.split('\n').filter(Boolean)).toHaveLength(6); // the import and five lines
    const script = snippet.replace("'http://localhost:3000'", JSON.stringify(url)).replace("'hb_publishable_…'", JSON.stringify(project.authKey));
    expect(script).not.toBe(snippet);
    fs.writeFileSync(path.join(app, 'first-app.mjs'), script);
    const r = await run(process.execPath, ['first-app.mjs'], { cwd: app });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Hello, Hostbase!\n');
    const rows = await t.post(`/project/${project.id}/database/tables/notes/rows/select`, {}, dev.token);
    expect(JSON.stringify(rows.json())).toContain('my first note');
  });

  test('an unreachable platform is a HostbaseError that says what to check, with the cause; CommonJS require works too', async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    fs.writeFileSync(
      path.join(app, 'down.mjs'),
      `import { createClient, HostbaseError } from '@hostbase/client';
const hb = createClient(${JSON.stringify(down)}, 'hb_publishable_x');
try {
  await hb.auth.signUp({ email: 'ada@example.com', password: 'tangerine mosaic 42' });
} catch (err) {
  console.log(JSON.stringify({ hostbase: err instanceof HostbaseError, name: err.name, status: err.status, code: err.code, message: err.message, cause: String(err.cause) }));
}`,
    );
    const r = await run(process.execPath, ['down.mjs'], { cwd: app });
    expect(r.code).toBe(0);
    const e = JSON.parse(r.stdout);
    expect(e).toMatchObject({ hostbase: true, name: 'HostbaseError', status: 0, code: 'network_error' });
    expect(e.message).toContain(`Could not reach Hostbase at ${down} — is the server running`);
    expect(e.message).toContain('ECONNREFUSED');
    expect(e.cause).toContain('fetch failed');
    const cjs = await run(process.execPath, ['-e', "const c = require('@hostbase/client'); console.log(typeof c.createClient, typeof c.HostbaseError)"], { cwd: app });
    expect(cjs).toMatchObject({ code: 0, stdout: 'function function\n' });
  });
});

describe("the README's first app", () => {
  /** The fenced blocks of the README's first-app section, in order, with their language. */
  function blocks(): { lang: string; code: string }[] {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## A first app in five minutes'), readme.indexOf('\n## ', readme.indexOf('## A first app in five minutes') + 5));
    return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, code: m[2]! }));
  }

  test('runs as written against a running platform: the curl set-up, the packed client, the script, the deploy', async () => {
    const [setup, install, script, site] = blocks();
    expect([setup?.lang, install?.lang, script?.lang, site?.lang]).toEqual(['sh', 'sh', 'js', 'sh']);
    const at = (code: string) => code.replaceAll('http://localhost:3000', url);
    const appDir = path.join(home, 'first-app');
    const configDir = path.join(home, 'readme-config');
    // One shell, as a reader pastes the blocks one after the other: the set-up's variables (K) carry on.
    const steps = [
      'set -e',
      at(setup!.code),
      install!.code.replaceAll('/tmp/first-app', appDir),
      `cat > first-app.mjs <<'JS'\n${at(script!.code)}JS`,
      'K=$K node first-app.mjs',
      `cd ${JSON.stringify(root)}`,
      // The deploy block but its last line: the site's address is the test platform's PUBLIC_URL.
      at(site!.code.split('\n').filter((l) => l && !l.startsWith('curl')).join('\n')),
    ].join('\n');
    const r = await run('bash', ['-c', steps], { cwd: root, env: { HOSTBASE_CONFIG_DIR: configDir } });
    fs.rmSync(path.join(root, 'site'), { recursive: true, force: true });
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("[ { id: 1, body: 'my first row' } ]");
    expect(r.stdout).toContain('Hello, Hostbase!');
    expect(r.stdout).toMatch(/Deployment \S+ is live: http:\/\/notes\.localhost:3000\n/);
  });
});
