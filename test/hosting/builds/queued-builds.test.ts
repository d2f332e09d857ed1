// Several instances: one that runs no tenant code (SITE_RUNNER=gateway) never builds. A source
// upload it receives answers 202 at once and is queued in the database with its stored source;
// an instance that runs builds takes it, builds it, and the site goes live for every instance.
// The log is followed through the gateway while the other instance writes it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/src/app';
import { buildTestApp, type TestApp } from '../../helpers/app';
import { createSiteProject, deploy, site, type SiteProject } from '../site-helpers';
import { makeZip } from '../zips';
import { probeSandbox } from '../../../server/src/modules/hosting/runtime/sandbox';
import { openDatabase, type Database } from '../../../server/src/db/client';
import { testDriver, urlWithDatabase } from '../../helpers/test-db';

const sandbox = probeSandbox();
if (!sandbox.ok) console.warn(`queued builds skipped: ${sandbox.problem}`);

let gateway: TestApp;
let builder: FastifyInstance;
let builderDb: Database | undefined;
let builderDir: string;
let p: SiteProject;

beforeAll(async () => {
  gateway = await buildTestApp({ SITE_RUNNER: 'gateway' });
  // Another instance: its own DATA_DIR (and instance id), the same database and object store.
  builderDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-builder-'));
  let database = gateway.database;
  if (testDriver() === 'postgres') {
    const [{ name }] = await gateway.database.query<{ name: string }>('SELECT current_database() AS name');
    database = builderDb = await openDatabase({ databaseUrl: urlWithDatabase(process.env.DATABASE_URL!, name), migrate: false, poolSize: 5 });
  }
  builder = await buildApp({ ...gateway.config, dataDir: builderDir, siteRunner: 'lease', webDir: undefined }, { database, logger: false, objectStore: gateway.app.deps.objectStore });
  await builder.ready();
  p = await createSiteProject(gateway);
}, 60_000);
afterAll(async () => {
  await builder?.close();
  await builderDb?.close();
  await gateway?.close();
  fs.rmSync(builderDir, { recursive: true, force: true });
}, 30_000);

(sandbox.ok ? test : test.skip)('a build uploaded to the gateway is built by the instance that runs builds', async () => {
  expect((await gateway.post(`/project/${p.id}/hosting/build-settings/set`, { build_command: 'mkdir -p public && echo "<h1>built elsewhere</h1>" > public/index.html', output_directory: 'public' }, p.dev.token)).statusCode).toBe(200);
  const res = await deploy(gateway, p, makeZip([{ name: 'package.json', data: '{"name":"queued"}' }]), 'Static');
  expect(res.statusCode).toBe(202);
  expect(res.json().message).toMatch(/^Build queued: Static/);
  const id = res.json().deployment.id;

  const stream = await gateway.app.inject({ method: 'GET', url: `/api/project/${p.id}/deployments/${id}/log-stream`, headers: { authorization: `Bearer ${p.dev.token}` } });
  expect(stream.payload).toContain('event: end\ndata: {"status":"live","error":null}');
  expect(stream.payload).toContain('Queued for an instance that runs builds');
  const builderId = fs.readFileSync(path.join(builderDir, 'hosting', 'instance-id'), 'utf8').trim();
  expect(stream.payload).toContain(`Taken by instance ${builderId}`);
  // Built on the builder; served by the gateway (from the stored build) and by the builder.
  expect((await site(gateway, p, '/')).payload).toContain('built elsewhere');
  expect((await builder.inject({ method: 'GET', url: '/', headers: { host: p.host } })).payload).toContain('built elsewhere');
  // The gateway never ran the build: nothing of it in its build cache.
  expect(fs.existsSync(path.join(gateway.dataDir, 'hosting', 'build-cache', p.id))).toBe(false);
}, 120_000);
