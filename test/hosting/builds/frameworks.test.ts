// The acceptance, through the API as a developer meets it: source zips of a Vite React
// app, a Next.js app (next start), an Express app with dependencies, a Flask app with a
// requirements file and a PHP app with composer.json each build in the sandbox and serve; a second
// deploy with an unchanged lockfile skips the install. Real npm packages from the registry; the
// Python wheel and the Composer package are made by fixtures.ts, so nothing needs another registry.
// Runs on PostgreSQL only (the PGlite pass covers builds through deploy-from-source.test.ts: the
// engine is the same, and each of these downloads and builds real packages for minutes).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildTestApp, type TestApp } from '../../helpers/app';
import { createSiteProject, deploy, site, type SiteProject } from '../site-helpers';
import { makeZip } from '../zips';
import { onPlan } from '../../helpers/factories';
import { probeSandbox } from '../../../server/src/modules/hosting/runtime/sandbox';
import { testDriver } from '../../helpers/test-db';
import { express, flask, makeWheel, nextApp, php, viteReact, type Tree } from './fixtures';

const sandbox = probeSandbox();
const run = sandbox.ok && testDriver() === 'postgres';
if (!run) console.warn(sandbox.ok ? 'framework builds run in the PostgreSQL pass only' : `framework builds skipped: ${sandbox.problem}`);
const describeBuilds = run ? describe : describe.skip;

let t: TestApp;

const zipOf = (tree: Tree, extra: { name: string; data: Buffer }[] = []) => makeZip([...Object.entries(tree).map(([name, data]) => ({ name, data })), ...extra]);

/** Deploys, follows the build's log stream to its end, and returns it. */
async function build(p: SiteProject, zip: Buffer, type: string) {
  const res = await deploy(t, p, zip, type);
  expect(res.statusCode).toBe(202);
  const id = res.json().deployment.id;
  const stream = await t.app.inject({ method: 'GET', url: `/api/project/${p.id}/deployments/${id}/log-stream`, headers: { authorization: `Bearer ${p.dev.token}` } });
  const end = /event: end\ndata: (.*)\n/.exec(stream.payload)?.[1];
  const log = (await t.post(`/project/${p.id}/deployments/${id}/logs`, {}, p.dev.token)).json().build_log as string;
  if (!end || JSON.parse(end).status !== 'live') throw new Error(`build did not go live: ${end}\n${log.slice(-3000)}`);
  return { id, framework: res.json().deployment.framework, log };
}

async function project(): Promise<SiteProject> {
  const p = await createSiteProject(t);
  await onPlan(t, p.dev, 'enterprise');
  return p;
}

beforeAll(async () => {
  t = await buildTestApp();
}, 60_000);
afterAll(() => t?.close(), 60_000);

describeBuilds('source zips build and serve', () => {
  test('Vite React: built to static files, served as a single-page app', async () => {
    const p = await project();
    const { framework, log } = await build(p, zipOf(viteReact('vite-react-marker')), 'React');
    expect(['React', 'Vite']).toContain(framework); // a React app built with Vite
    expect(log).toMatch(/npm (ci|install)/);
    const page = await site(t, p, '/');
    expect(page.statusCode).toBe(200);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.payload)?.[1];
    expect(script).toBeDefined();
    expect((await site(t, p, script!)).payload).toContain('vite-react-marker');
    expect((await site(t, p, '/some/client/route')).payload).toContain('<div id="root">');
    // Sources and dependencies stay behind: only the build's output is served.
    expect((await site(t, p, '/package.json')).statusCode).toBe(404);
    expect((await site(t, p, '/node_modules/react/package.json')).statusCode).toBe(404);
  }, 600_000);

  test('Express with dependencies: installed, started, and a redeploy with the same lockfile skips the install', async () => {
    const p = await project();
    await build(p, zipOf(express('express-1')), 'Node');
    expect((await site(t, p, '/')).json()).toMatchObject({ hello: 'express-1' });
    const again = await build(p, zipOf(express('express-2')), 'Node');
    expect(again.log).toMatch(/install skipped/);
    expect((await site(t, p, '/')).json()).toMatchObject({ hello: 'express-2' });
  }, 600_000);

  test('Flask with a requirements file (a local wheel and Debian\'s Flask)', async () => {
    const p = await project();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wheels-'));
    const wheel = await makeWheel(path.join(dir, 'wheels'), 'hello_greet', '1.0.0', 'def greet(who):\n    return "hello from a wheel, " + who\n');
    const { framework } = await build(p, zipOf(flask('flask-marker'), [{ name: `wheels/${path.basename(wheel)}`, data: fs.readFileSync(wheel) }]), 'Flask');
    fs.rmSync(dir, { recursive: true, force: true });
    expect(framework).toBe('Flask');
    expect((await site(t, p, '/')).json()).toEqual({ hello: 'hello from a wheel, flask-marker' });
  }, 600_000);

  test('PHP with composer.json (a path repository)', async () => {
    const p = await project();
    const { framework } = await build(p, zipOf(php('php-marker')), 'PHP');
    expect(framework).toBe('PHP');
    expect((await site(t, p, '/')).json()).toEqual({ hello: 'hello from composer, php-marker' });
  }, 600_000);

  test('Next.js: built and served by next start', async () => {
    const p = await project();
    const { framework } = await build(p, zipOf(nextApp('next-marker')), 'Next.js');
    expect(framework).toBe('Next.js');
    const page = await site(t, p, '/');
    expect(page.statusCode).toBe(200);
    expect(page.payload).toContain('next-marker');
    expect(page.payload).toContain('live');
  }, 900_000);
});
