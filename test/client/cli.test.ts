// The `hostbase` CLI as a child process against the real platform over HTTP: login (password, and
// two-factor when on; the token file private to the user), projects, deploy of a folder (and the
// refusal of a symbolic link out of it), logs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'otplib';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, registerDeveloper, type Developer, type Project } from '../helpers/factories';
import { request } from '../helpers/http-request';

jest.setTimeout(120_000);

const root = path.resolve(__dirname, '..', '..');
const CLI = path.join(root, 'packages/cli/src/cli.ts');

let t: TestApp;
let url: string;
let port: number;
let dev: Developer;
let site: Project;
let other: Project;
let home: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `hostbase args…` with `input` on its standard input. */
function hostbase(args: string[], o: { input?: string; env?: Record<string, string>; config?: string } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [CLI, ...args], {
      cwd: root,
      env: { ...process.env, HOSTBASE_CONFIG_DIR: o.config ?? path.join(home, 'config'), HOSTBASE_URL: '', HOSTBASE_PASSWORD: '', ...o.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(o.input ?? '');
  });
}

function folder(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(home, 'site-'));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

const deployments = async (p: Project) => (await t.post(`/project/${p.id}/deployments`, {}, dev.token)).json().deployments as { id: string; live: boolean }[];

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-cli-'));
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;
  dev = await registerDeveloper(t);
  site = await createProject(t, dev);
  other = await createProject(t, dev);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('login', () => {
  test('--token: checked with the platform, then stored; a wrong one is refused and nothing stored', async () => {
    const config = path.join(home, 'token-login');
    const bad = await hostbase(['login', '--url', url, '--token', 'not-a-token', '--json'], { config });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).error.message).toContain('That token is not a valid sign-in');
    expect(fs.existsSync(path.join(config, 'credentials.json'))).toBe(false);
    const r = await hostbase(['login', '--url', url, '--token', dev.token, '--json'], { config });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ url, credentials: path.join(config, 'credentials.json') });
    const list = await hostbase(['projects', '--json'], { config });
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).map((p: { id: string }) => p.id).sort()).toEqual([site.id, other.id].sort());
  });

  test('email and password from standard input; the token file is the user\'s alone', async () => {
    const r = await hostbase(['login', '--url', url], { input: `${dev.email}\n${dev.password}\n` });
    expect(r.stderr).toContain('Password:');
    expect(r.stdout).toContain(`Signed in to ${url} as ${dev.email}`);
    expect(r.code).toBe(0);
    const file = path.join(home, 'config', 'credentials.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(stored).toMatchObject({ url, email: dev.email });
    expect((await t.post('/verify-token', { token: stored.token })).json().message).toBe('True');
  });

  test('a wrong password: the server message, exit 1, nothing stored', async () => {
    const config = path.join(home, 'wrong');
    const r = await hostbase(['login', '--url', url, '--email', dev.email], { input: 'not the password\n', config });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/invalid/i);
    expect(fs.existsSync(path.join(config, 'credentials.json'))).toBe(false);
    const none = await hostbase(['login', '--url', url], { input: '', config });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('No answer to "Email:"');
  });

  test('two-factor: the code is asked for when the account has it on', async () => {
    const mfa = await registerDeveloper(t);
    const secret = (await t.post('/toggle-mfa', {}, mfa.token)).json().secret as string;
    const enabled = await t.post('/toggle-mfa', { mfa_code: await generate({ secret }) }, mfa.token);
    expect(enabled.statusCode).toBe(200);
    const recovery = enabled.json().recovery_codes[0] as string;
    const config = path.join(home, 'mfa');
    const wrong = await hostbase(['login', '--url', url], { input: `${mfa.email}\n${mfa.password}\n000000x\n`, config });
    expect(wrong.stderr).toContain('Two-factor code');
    expect(wrong.code).toBe(1);
    const r = await hostbase(['login', '--url', url], { input: `${mfa.email}\n${mfa.password}\n${recovery}\n`, config });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`as ${mfa.email}`);
    const projects = await hostbase(['projects'], { config });
    expect(projects).toMatchObject({ code: 0, stdout: expect.stringContaining('No projects yet') });
  });
});

describe('with a stored sign-in', () => {
  beforeAll(async () => {
    const r = await hostbase(['login', '--url', url, '--email', dev.email], { env: { HOSTBASE_PASSWORD: dev.password } });
    expect(r.code).toBe(0);
  });

  test('projects: a table, or JSON', async () => {
    const r = await hostbase(['projects']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ID\s+NAME\s+DOMAIN\s+CREATED/);
    for (const p of [site, other]) expect(r.stdout).toContain(p.id);
    const json = await hostbase(['projects', '--json']);
    expect(JSON.parse(json.stdout).map((p: { id: string }) => p.id).sort()).toEqual([site.id, other.id].sort());
  });

  test('deploy: the folder becomes the live site; logs show its deploy log', async () => {
    const dir = folder({ 'index.html': '<h1>deployed by the cli</h1>', 'docs/about.html': 'about us' });
    fs.symlinkSync('../index.html', path.join(dir, 'docs', 'home.html')); // inside the folder: followed
    const r = await hostbase(['deploy', dir, '--project', site.subdomain]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Deploying 3 files`);
    expect(r.stdout).toMatch(/as Static/);
    // The site's address as the platform gives it (site_url): PUBLIC_URL's scheme and port kept.
    expect(r.stdout).toMatch(new RegExp(`Deployment \\S+ is live: http://${site.subdomain}\\.localhost:3000\n`));
    const host = site.host;
    expect((await request(port, 'GET', '/', undefined, { host })).body).toContain('deployed by the cli');
    expect((await request(port, 'GET', '/docs/home.html', undefined, { host })).body).toContain('deployed by the cli');
    expect((await request(port, 'GET', '/docs/about.html', undefined, { host })).body).toBe('about us');

    const logs = await hostbase(['logs', '--project', site.id]);
    expect(logs.code).toBe(0);
    const [live] = (await deployments(site)).filter((d) => d.live);
    expect(logs.stdout).toContain(`== deployment ${live.id} (live)`);
    expect(logs.stdout).toContain('== deploy log');
    expect(logs.stdout).toContain('== runtime log');
    expect(logs.stdout.split('== runtime log')[0].trim().split('\n').length).toBeGreaterThan(2); // the deploy log's lines
  });

  test('deploy of a folder with nothing to build is an instant redeploy: only changed files are sent', async () => {
    const files: Record<string, string> = { 'index.html': '<h1>instant v1</h1>' };
    for (let i = 0; i < 40; i++) files[`assets/a${i}.js`] = `console.log(${i});`;
    const dir = folder(files);
    const first = await hostbase(['deploy', dir, '--project', site.subdomain]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('41 files; uploading 41 the platform does not have yet');
    const host = site.host;
    expect((await request(port, 'GET', '/', undefined, { host })).body).toContain('instant v1');

    fs.writeFileSync(path.join(dir, 'index.html'), '<h1>instant v2</h1>');
    const second = await hostbase(['deploy', dir, '--project', site.subdomain]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('41 files; uploading 1 the platform does not have yet');
    expect(second.stdout).toMatch(/Deployment \S+ is live/);
    expect((await request(port, 'GET', '/', undefined, { host })).body).toContain('instant v2');
    expect((await request(port, 'GET', '/assets/a7.js', undefined, { host })).body).toBe('console.log(7);');

    const again = await hostbase(['deploy', dir, '--project', site.subdomain]);
    expect(again.stdout).toContain('all already on the platform: nothing to upload');
    // A folder the platform refuses (no index.html for a static site) deploys nothing and says why.
    const before = await deployments(site);
    const bad = await hostbase(['deploy', folder({ 'about.html': 'no index' }), '--project', site.subdomain, '--type', 'Static']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/index\.html/);
    expect((await deployments(site)).filter((d) => d.live)).toEqual(before.filter((d) => d.live));
  });

  test('deploy refuses a symbolic link out of the folder, and deploys nothing', async () => {
    const before = await deployments(other);
    const secret = path.join(home, 'secret.txt');
    fs.writeFileSync(secret, 'not for the web');
    const dir = folder({ 'index.html': 'hi' });
    fs.symlinkSync(secret, path.join(dir, 'leak.txt'));
    const r = await hostbase(['deploy', dir, '--project', other.subdomain]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('leak.txt is a symbolic link out of the folder');
    const linkedDir = folder({ 'index.html': 'hi' });
    fs.symlinkSync(home, path.join(linkedDir, 'up'));
    expect((await hostbase(['deploy', linkedDir, '--project', other.subdomain])).stderr).toContain('up is a symbolic link out of the folder');
    expect(await deployments(other)).toEqual(before);
  });

  test('deploy: several projects need --project; a wrong one or a wrong type is named', async () => {
    const dir = folder({ 'index.html': 'x' });
    expect((await hostbase(['deploy', dir])).stderr).toContain('You have 2 projects: name one with --project');
    expect((await hostbase(['deploy', dir, '--project', 'nope'])).stderr).toContain('No project "nope"');
    const bad = await hostbase(['deploy', dir, '--project', site.id, '--type', 'Cobol']);
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown type "Cobol"') });
    expect((await hostbase(['deploy', path.join(home, 'missing'), '--project', site.id])).stderr).toContain('no such folder');
  });

  test('logs --follow prints the next deployment as it goes live, until interrupted', async () => {
    const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [CLI, 'logs', '--follow', '--build', '--project', site.subdomain], {
      cwd: root,
      env: { ...process.env, HOSTBASE_CONFIG_DIR: path.join(home, 'config'), HOSTBASE_POLL_MS: '200' },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => child.on('close', r));
    const waitFor = async (text: string) => {
      for (let i = 0; i < 600 && !out.includes(text); i++) await new Promise((r) => setTimeout(r, 100));
      expect(out).toContain(text);
    };
    await waitFor('== deployment');
    const r = await hostbase(['deploy', folder({ 'index.html': 'second' }), '--project', site.subdomain]);
    expect(r.code).toBe(0);
    const id = r.stdout.match(/Deployment (\S+) is live/)![1];
    await waitFor(`== deployment ${id}`);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  test('env: set, list (secrets masked), unset', async () => {
    const set = await hostbase(['env', 'set', 'API_BASE=https://api.example.com', 'GREETING=a=b', '--project', site.subdomain]);
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('API_BASE=https://api.example.com');
    expect(set.stdout).toContain('GREETING=a=b');
    const secret = await hostbase(['env', 'set', 'STRIPE_KEY=sk_live_123', '--secret', '--project', site.subdomain]);
    expect(secret.code).toBe(0);
    const list = await hostbase(['env', 'list', '--project', site.subdomain]);
    expect(list.stdout).toContain('STRIPE_KEY=•••••• (secret)');
    expect(list.stdout).not.toContain('sk_live_123');
    const json = JSON.parse((await hostbase(['env', 'list', '--json', '--project', site.subdomain])).stdout);
    expect(json.variables.map((v: { name: string }) => v.name)).toEqual(['API_BASE', 'GREETING', 'STRIPE_KEY']);
    const unset = await hostbase(['env', 'unset', 'GREETING', 'STRIPE_KEY', '--project', site.subdomain]);
    expect(unset.code).toBe(0);
    expect(unset.stdout).not.toContain('GREETING');
    expect((await hostbase(['env', 'list', '--project', site.subdomain])).stdout).toContain('API_BASE=');
    const reserved = await hostbase(['env', 'set', 'PORT=1', '--project', site.subdomain]);
    expect(reserved.code).toBe(1);
    expect(reserved.stderr).toMatch(/PORT/);
    expect((await hostbase(['env', 'set', 'NOEQUALS', '--project', site.subdomain])).code).toBe(2);
    expect((await hostbase(['env', 'frob'])).code).toBe(2);
  });

  test('signed out: commands say to log in; unknown commands are usage errors', async () => {
    const config = path.join(home, 'nobody');
    expect(await hostbase(['projects'], { config })).toMatchObject({ code: 1, stderr: expect.stringContaining('Not signed in. Run `hostbase login` first.') });
    expect(await hostbase(['frobnicate'])).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown command "frobnicate"') });
    expect(await hostbase(['projects', '--bogus'])).toMatchObject({ code: 2 });
    expect((await hostbase(['--help'])).stdout).toContain('hostbase deploy [folder]');
    const out = await hostbase(['logout']);
    expect(out.stdout).toContain('Signed out');
    expect(await hostbase(['projects'])).toMatchObject({ code: 1 });
  });
});
