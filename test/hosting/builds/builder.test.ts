// The build engine with the real sandbox, real npm packages from the registry, a Python wheel and
// a Composer path package made here: each framework builds (cold, then from the dependency cache)
// and its output serves; each limit stops the build with its message and leaves no process.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Builder, BuildFailedError, buildGroupName, type BuildLimits, type BuildOutcome } from '../../../server/src/modules/hosting/build/builder';
import { detectBuild, type BuildSettings } from '../../../server/src/modules/hosting/build/detect';
import { regularFiles, writeArchive } from '../../../server/src/modules/hosting/build/output-archive';
import { extractTo, planZip } from '../../../server/src/modules/hosting/deploy/zip-extract';
import { detectCgroups } from '../../../server/src/modules/hosting/runtime/cgroups';
import { ProcessRuntime } from '../../../server/src/modules/hosting/runtime/runtime.process';
import { findTool, probeSandbox } from '../../../server/src/modules/hosting/runtime/sandbox';
import { testDriver } from '../../helpers/test-db';
import { express, flask, makeWheel, nextApp, php, viteReact, writeTree, type Tree } from './fixtures';

const sandbox = probeSandbox();
const cgroups = sandbox.ok ? detectCgroups() : { problem: 'no sandbox' };
// The engine touches no database: it runs in one pass, the PGlite one, beside the PostgreSQL
// pass's API-level framework builds (frameworks.test.ts), so CI builds each framework twice, not four times.
const otherPass = process.env.DATABASE_URL && testDriver() === 'postgres' ? 'the engine is tested in the PGlite pass (TEST_DB=pglite)' : undefined;
const missing = otherPass ?? (!sandbox.ok ? sandbox.problem : 'problem' in cgroups ? cgroups.problem : !findTool('npm') ? 'npm is not installed' : undefined);
if (missing) console.warn(`build tests skipped: ${missing}`);
const hasComposer = !!findTool('composer');
const hasFlask = fs.existsSync('/usr/lib/python3/dist-packages/flask');
if (!missing && !hasComposer) console.warn('composer is not installed (apt-get install composer): the PHP build test is skipped');
if (!missing && !hasFlask) console.warn('python3-flask is not installed: the Flask build test is skipped');
const describeBuilds = missing ? describe.skip : describe;

const log = { error: () => undefined, warn: () => undefined, info: () => undefined } as never;
const MiB = 1024 * 1024;
const LIMITS: BuildLimits = { timeoutMs: 600_000, memoryBytes: 2048 * MiB, diskBytes: 4096 * MiB };
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-builds-test-'));
fs.chmodSync(root, 0o711);
const uid = 62_000 + Math.floor(Math.random() * 1000);
const cacheRoot = path.join(root, 'cache');
const figures: string[] = [];
let n = 0;

afterAll(() => {
  if (figures.length) console.log(`build times on this machine:\n${figures.join('\n')}`);
  fs.rmSync(root, { recursive: true, force: true });
});

interface Built {
  outcome: BuildOutcome;
  log: string;
  seconds: number;
  deploymentId: string;
}

async function build(tree: Tree, type: string, o: { project: string; settings?: BuildSettings; limits?: Partial<BuildLimits>; extra?: (dir: string) => Promise<void> }): Promise<Built> {
  const deploymentId = `dep-${process.pid}-${++n}`;
  const workspace = path.join(root, deploymentId);
  fs.mkdirSync(workspace);
  writeTree(workspace, tree);
  await o.extra?.(workspace);
  const names = new Set((await regularFiles(workspace)).files.map((f) => f.rel));
  const plan = await detectBuild(type, names, (name) => fs.promises.readFile(path.join(workspace, name), 'utf8'), o.settings);
  if (!plan) throw new Error('nothing to build');
  const builder = new Builder({ cacheRoot, uidOf: async () => uid, limits: { ...LIMITS, ...o.limits }, egress: true, log });
  let text = '';
  const started = Date.now();
  try {
    const outcome = await builder.build({ projectId: o.project, deploymentId, workspace, plan, env: { GREETING: 'from the site env' }, onLog: (t) => (text += t) });
    return { outcome, log: text, seconds: (Date.now() - started) / 1000, deploymentId };
  } catch (err) {
    (err as Error).message += `\n--- build log ---\n${text.slice(-4000)}`;
    throw err;
  }
}

async function buildFails(command: string, limits: Partial<BuildLimits>): Promise<{ error: BuildFailedError; deploymentId: string }> {
  const deploymentId = `dep-${process.pid}-${++n}`;
  const workspace = path.join(root, deploymentId);
  fs.mkdirSync(workspace);
  const builder = new Builder({ cacheRoot, uidOf: async () => uid, limits: { ...LIMITS, ...limits }, egress: false, log });
  const plan = { framework: 'Static' as const, reason: 'test', root: '', build: command, output: { kind: 'static' as const } };
  const error = await builder.build({ projectId: `limits-${deploymentId}`, deploymentId, workspace, plan, env: {}, onLog: () => undefined }).then(
    () => { throw new Error('the build should have failed'); },
    (err: unknown) => err as BuildFailedError,
  );
  expect(error).toBeInstanceOf(BuildFailedError);
  return { error, deploymentId };
}

/** Nothing of a build is left: no process of the site's user, no control group. */
function assertNothingLeft(deploymentId: string) {
  const ps = execFileSync('ps', ['-e', '-o', 'uid=']).toString().split('\n').map((s) => Number(s.trim()));
  expect(ps.filter((u) => u === uid)).toEqual([]);
  for (const dir of groupDirs(deploymentId)) expect(fs.existsSync(dir)).toBe(false);
}

/** The build's control group folders (cgroup v1 controllers, or the v2 group). */
function groupDirs(deploymentId: string): string[] {
  const name = buildGroupName(deploymentId);
  return [...['memory', 'pids', 'cpu'].map((c) => `/sys/fs/cgroup/${c}/hostbase/${name}`), `/sys/fs/cgroup/hostbase/${name}`];
}

/**
 * Runs a built site as another instance would: from its deployment archive (output-archive.ts,
 * read back by planZip/extractTo: regular files only, modes 0644), with the platform's runtime
 * (the sandbox, the outcome's command); then GETs /.
 */
async function serve(b: Built, project: string): Promise<string> {
  if (b.outcome.kind === 'static') throw new Error('static');
  const zip = path.join(root, `${b.deploymentId}.zip`);
  const archived = await writeArchive(b.outcome.dir, zip);
  const dir = path.join(root, `${b.deploymentId}-extracted`);
  fs.mkdirSync(dir);
  const plan = await planZip(zip, { maxTotalBytes: 4 * 1024 ** 3, maxEntries: 65_535, maxRatio: 1e9, ratioFloorBytes: 1024 ** 3 });
  try {
    expect(plan.files.length).toBe(archived.files);
    await extractTo(plan, zip, dir);
  } finally {
    plan.close();
  }
  const runtime = new ProcessRuntime({ log, siteUid: async () => uid, egress: 'none', runRoot: path.join(root, 'run'), startTimeoutMs: 90_000, limits: { memoryBytes: 1024 * MiB } });
  try {
    const up = await runtime.ensure({ projectId: project, deploymentId: b.deploymentId, kind: b.outcome.kind, dir, entry: b.outcome.entry, command: b.outcome.command });
    if (!('socketPath' in up)) throw new Error('expected a socket');
    return await new Promise<string>((resolve, reject) => {
      http.get({ socketPath: up.socketPath, path: '/', headers: { host: 'site' } }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve(`${res.statusCode} ${body}`));
      }).on('error', reject);
    });
  } finally {
    await runtime.close();
  }
}

describeBuilds('builds in the sandbox', () => {
  test('a Vite React source builds to static files holding the app; the second build restores its dependencies', async () => {
    const cold = await build(viteReact('Hello from Vite'), 'React', { project: 'vite' });
    expect(cold.log).toMatch(/Detected React \(package\.json: vite, react, scripts\.build\)/);
    expect(cold.log).toMatch(/Installing dependencies: npm install/);
    expect(cold.outcome.kind).toBe('static');
    const dir = cold.outcome.dir;
    expect(path.basename(dir)).toBe('dist');
    expect(fs.readFileSync(path.join(dir, 'index.html'), 'utf8')).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js">/);
    const js = fs.readdirSync(path.join(dir, 'assets')).filter((f) => f.endsWith('.js'));
    expect(fs.readFileSync(path.join(dir, 'assets', js[0]), 'utf8')).toContain('Hello from Vite');
    // The files were written by the project's user, not root.
    expect(fs.statSync(path.join(dir, 'index.html')).uid).toBe(uid);

    const warm = await build(viteReact('Hello again'), 'React', { project: 'vite' });
    expect(warm.log).toMatch(/Dependencies restored from the cache \(lockfile unchanged\); install skipped/);
    expect(warm.log).not.toMatch(/Installing dependencies/);
    const js2 = fs.readdirSync(path.join(warm.outcome.dir, 'assets')).filter((f) => f.endsWith('.js'));
    expect(fs.readFileSync(path.join(warm.outcome.dir, 'assets', js2[0]), 'utf8')).toContain('Hello again');
    figures.push(`Vite React: cold ${cold.seconds.toFixed(1)} s, cached ${warm.seconds.toFixed(1)} s`);
  }, 600_000);

  test('an Express app installs its dependencies and its start command serves; an unchanged lockfile skips the install', async () => {
    // The install also counts its runs in the download cache (/cache persists between builds).
    const settings = { installCommand: 'npm install && echo ran >> /cache/install-runs' };
    const cold = await build(express('express-1'), 'Node', { project: 'express', settings });
    expect(cold.outcome).toMatchObject({ kind: 'node', entry: 'server.js', command: [process.execPath, 'server.js'] });
    expect(await serve(cold, 'express')).toMatch(/^200 \{"hello":"express-1","express":"4\./);
    const warm = await build(express('express-2'), 'Node', { project: 'express', settings });
    expect(warm.log).toMatch(/Dependencies restored from the cache \(lockfile unchanged\); install skipped/);
    expect(fs.readFileSync(path.join(cacheRoot, 'express', 'downloads', 'install-runs'), 'utf8')).toBe('ran\n');
    expect(await serve(warm, 'express')).toMatch(/^200 \{"hello":"express-2"/);
    figures.push(`Express: cold ${cold.seconds.toFixed(1)} s, cached ${warm.seconds.toFixed(1)} s`);
  }, 600_000);

  test('a Next.js app builds and `next start` serves a page, run by node without npm', async () => {
    const cold = await build(nextApp('Hello from Next'), 'Next.js', { project: 'next' });
    expect(cold.outcome).toMatchObject({ kind: 'node', command: [process.execPath, '/app/node_modules/next/dist/bin/next', 'start'] });
    expect(await serve(cold, 'next')).toMatch(/^200 .*Hello from Next/s);
    const warm = await build(nextApp('Hello from Next'), 'Next.js', { project: 'next' });
    expect(warm.log).toMatch(/install skipped/);
    figures.push(`Next.js: cold ${cold.seconds.toFixed(1)} s, cached ${warm.seconds.toFixed(1)} s`);
  }, 1_200_000);

  (hasFlask ? test : test.skip)('a Flask app installs a local wheel into a virtualenv and serves', async () => {
    const extra = async (dir: string) => {
      await makeWheel(path.join(dir, 'wheels'), 'hello_greet', '1.0.0', 'def greet(who):\n    return "hello from a wheel, " + who\n');
    };
    const cold = await build(flask('flask-1'), 'Flask', { project: 'flask', extra });
    expect(cold.log).toMatch(/Successfully installed hello[-_]greet-1\.0\.0/);
    expect(cold.outcome).toMatchObject({ kind: 'flask', entry: 'app.py' });
    expect(await serve(cold, 'flask')).toBe('200 {"hello":"hello from a wheel, flask-1"}\n');
    const warm = await build(flask('flask-2'), 'Flask', { project: 'flask', extra });
    expect(warm.log).toMatch(/install skipped/);
    expect(await serve(warm, 'flask')).toBe('200 {"hello":"hello from a wheel, flask-2"}\n');
    figures.push(`Flask: cold ${cold.seconds.toFixed(1)} s, cached ${warm.seconds.toFixed(1)} s`);
  }, 300_000);

  (hasComposer ? test : test.skip)('a PHP app installs a Composer path package and serves', async () => {
    const cold = await build(php('php-1'), 'PHP', { project: 'php' });
    expect(cold.log).toMatch(/Installing dependencies: composer install/);
    expect(cold.outcome).toMatchObject({ kind: 'php', entry: 'index.php' });
    // Mirrored, not linked: the deployment keeps regular files only.
    expect(fs.lstatSync(path.join(cold.outcome.dir, 'vendor/acme/greeter')).isSymbolicLink()).toBe(false);
    expect(await serve(cold, 'php')).toBe('200 {"hello":"hello from composer, php-1"}');
    const warm = await build(php('php-2'), 'PHP', { project: 'php' });
    expect(warm.log).toMatch(/install skipped/);
    figures.push(`PHP: cold ${cold.seconds.toFixed(1)} s, cached ${warm.seconds.toFixed(1)} s`);
  }, 300_000);

  test('a build past its time limit is stopped with its message, and nothing keeps running', async () => {
    const { error, deploymentId } = await buildFails('sleep 30 & sleep 30', { timeoutMs: 2000 });
    expect(error.message).toBe('The build was stopped: it ran longer than its limit of 2 s.');
    assertNothingLeft(deploymentId);
  }, 60_000);

  test('a build past its memory limit is stopped with its message', async () => {
    const { error, deploymentId } = await buildFails(`node -e "const a = []; for (;;) a.push(Buffer.alloc(1 << 20, 1))"`, { memoryBytes: 96 * MiB });
    expect(error.message).toBe('The build was stopped: it used more than its memory limit of 96 MiB.');
    assertNothingLeft(deploymentId);
  }, 60_000);

  test('a build past its disk limit is stopped with its message', async () => {
    const { error, deploymentId } = await buildFails('head -c 50000000 /dev/zero > big; sleep 20', { diskBytes: 20 * MiB });
    expect(error.message).toBe('The build was stopped: it wrote more than its disk limit of 20 MiB.');
    assertNothingLeft(deploymentId);
  }, 60_000);

  test('a failing build command fails with its exit code', async () => {
    const { error, deploymentId } = await buildFails('echo broken >&2; exit 3', {});
    expect(error.message).toBe('The build command exited with code 3: echo broken >&2; exit 3');
    assertNothingLeft(deploymentId);
  }, 60_000);

  test('the site\'s variables reach the build through a pipe, never a host process\'s argv; the build writes /app as the site\'s user', async () => {
    const deploymentId = `dep-${process.pid}-${++n}`;
    const workspace = path.join(root, deploymentId);
    fs.mkdirSync(workspace);
    const builder = new Builder({ cacheRoot, uidOf: async () => uid, limits: LIMITS, egress: false, log });
    const command = 'echo "$SECRET_TOKEN" > token.txt; id -u > uid.txt; echo "$HOME" > home.txt; mkdir dist; echo ok > dist/index.html; sleep 3';
    const plan = { framework: 'Static' as const, reason: 'test', root: '', build: command, output: { kind: 'static' as const } };
    let text = '';
    const building = builder.build({ projectId: 'env', deploymentId, workspace, plan, env: { SECRET_TOKEN: 's3cret-6b1f' }, onLog: (t) => (text += t) });
    // While it runs: its group exists (so the "nothing left" checks above can fail), and no argv holds the secret.
    const deadline = Date.now() + 20_000;
    while (!groupDirs(deploymentId).some((d) => fs.existsSync(d)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(groupDirs(deploymentId).some((d) => fs.existsSync(d))).toBe(true);
    expect(execFileSync('ps', ['-e', '-o', 'args']).toString()).not.toContain('s3cret-6b1f');
    const outcome = await building;
    expect(outcome).toEqual({ kind: 'static', dir: path.join(workspace, 'dist') });
    expect(fs.readFileSync(path.join(workspace, 'token.txt'), 'utf8')).toBe('s3cret-6b1f\n');
    expect(fs.readFileSync(path.join(workspace, 'uid.txt'), 'utf8')).toBe(`${uid}\n`);
    expect(fs.readFileSync(path.join(workspace, 'home.txt'), 'utf8')).toBe('/tmp\n');
    expect(text).toMatch(/The build has no outbound network \(outbound network is turned off/);
    assertNothingLeft(deploymentId);
  }, 60_000);

  test('an output folder that is a link is refused; links inside the output are dropped, never followed', async () => {
    const escape = await buildFails('ln -s /etc dist', {});
    expect(escape.error.message).toMatch(/output folder .*does not exist/);
    const deploymentId = `dep-${process.pid}-${++n}`;
    const workspace = path.join(root, deploymentId);
    fs.mkdirSync(workspace);
    const builder = new Builder({ cacheRoot, uidOf: async () => uid, limits: LIMITS, egress: false, log });
    const plan = { framework: 'Static' as const, reason: 'test', root: '', build: 'mkdir dist && echo ok > dist/index.html && ln -s /etc/shadow dist/shadow && ln -s /etc dist/etc', output: { kind: 'static' as const } };
    const outcome = await builder.build({ projectId: 'links', deploymentId, workspace, plan, env: {}, onLog: () => undefined });
    expect(fs.readdirSync(outcome.dir).sort()).toEqual(['index.html']);
  }, 60_000);

  test('a cancelled build stops at once with nothing left running', async () => {
    const deploymentId = `dep-${process.pid}-${++n}`;
    const workspace = path.join(root, deploymentId);
    fs.mkdirSync(workspace);
    const builder = new Builder({ cacheRoot, uidOf: async () => uid, limits: LIMITS, egress: false, log });
    const plan = { framework: 'Static' as const, reason: 'test', root: '', build: 'sleep 60', output: { kind: 'static' as const } };
    const abort = new AbortController();
    const building = builder.build({ projectId: 'cancel', deploymentId, workspace, plan, env: {}, onLog: () => undefined, signal: abort.signal });
    setTimeout(() => abort.abort(), 1000);
    await expect(building).rejects.toThrow('The build was cancelled.');
    assertNothingLeft(deploymentId);
  }, 60_000);
});
