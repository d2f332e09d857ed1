// The whole site in a project archive: a live deployment made by the manifest API (no archive.zip:
// its files are the project's blobs) comes back as an archive deployment serving the same files,
// its _redirects working; the deployment's framework/runtime/command, the site's variables (a
// secret opened in the archive, sealed with the target's secret again), its build settings and
// its custom domains (without certificates; a name another project verified on the target comes
// back unverified) are restored. An archive written before these were carried still imports.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, deploy, makeZip, multipart, onPlan, registerDeveloper, type Developer, type Project } from '../helpers/factories';
import { site } from '../hosting/site-helpers';
import { backupDeps, exportProject, importProject, type BackupDeps } from '../../server/src/modules/backup';
import { TarWriter, extractTar } from '../../server/src/modules/backup/tar';
import { SiteEnv } from '../../server/src/modules/hosting/runtime/site-env';
import { HostingRepository } from '../../server/src/modules/hosting/hosting.repository';
import { probeSandbox } from '../../server/src/modules/hosting/runtime/sandbox';

const sandbox = probeSandbox();
if (!sandbox.ok) console.warn(`the built deployment's round trip is skipped: ${sandbox.problem}`);
const testSandboxed = sandbox.ok ? test : test.skip;

jest.setTimeout(120_000);

const depsOf = (t: TestApp): BackupDeps => backupDeps(t.app.deps, t.app.projects.lifecycles, path.join(t.dataDir, 'backup'));
// No certificate is requested in these tests (a verified domain imported has none yet).
const noCa = { domains: { renewCheckMs: 0, issuer: { issue: () => Promise.reject(new Error('no CA in this test')) } } };
const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

const FILES = {
  'index.html': '<!doctype html><title>Manifest shop</title>',
  'about.html': '<title>about</title>',
  'assets/app.js': 'console.log("app");',
  'assets/copy.js': 'console.log("app");', // the same blob twice
  '_redirects': '/old /about.html 301\n/docs/* /about.html 302',
};
const COMMAND = ['node', '.next/standalone/server.js'];
const SETTINGS = { build_command: 'mkdir -p public && echo hi > public/index.html', output_directory: 'public' };

let a: TestApp;
let b: TestApp;
let c: TestApp;
let work: string;
let archive: string;
let p: Project;
let ownerB: Developer;
let deploymentId: string;
let seenDeployment: Record<string, unknown>;

async function manifestDeploy(t: TestApp, project: Project, files: Record<string, string>): Promise<string> {
  const auth = { authorization: `Bearer ${project.dev.token}` };
  const m = await t.app.inject({ method: 'POST', url: `/api/project/${project.id}/deployments/manifest`, headers: auth, payload: { type: 'Static', files: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, sha(v)])) } });
  expect(m.statusCode).toBe(200);
  const { deployment_id: id, missing } = m.json() as { deployment_id: string; missing: string[] };
  const byDigest = new Map(Object.values(files).map((v) => [sha(v), v]));
  const { body, contentType } = multipart(missing.map((d) => ({ field: 'file', name: d, type: 'application/octet-stream', content: byDigest.get(d)! })));
  expect((await t.app.inject({ method: 'POST', url: `/api/project/${project.id}/deployments/${id}/files`, headers: { ...auth, 'content-type': contentType }, payload: body })).statusCode).toBe(200);
  const f = await t.app.inject({ method: 'POST', url: `/api/project/${project.id}/deployments/${id}/finish`, headers: auth, payload: {} });
  expect(f.statusCode).toBe(200);
  return id;
}

async function deploymentRow(t: TestApp, id: string) {
  const [row] = await t.database.query<Record<string, unknown>>('SELECT type, status, framework, runtime, command, rules, root, file_count, size_bytes FROM site_deployments WHERE id = $1', [id]);
  return row;
}

async function expectSiteServes(t: TestApp) {
  for (const [name, content] of Object.entries(FILES)) {
    if (name === '_redirects') continue;
    const res = await site(t, p, `/${name}`);
    expect({ name, status: res.statusCode, body: res.body }).toEqual({ name, status: 200, body: content });
  }
  expect((await site(t, p, '/')).body).toBe(FILES['index.html']);
  const old = await site(t, p, '/old');
  expect({ status: old.statusCode, location: old.headers.location }).toEqual({ status: 301, location: '/about.html' });
  const docs = await site(t, p, '/docs/intro');
  expect({ status: docs.statusCode, location: docs.headers.location }).toEqual({ status: 302, location: '/about.html' });
  expect((await site(t, p, '/_redirects')).statusCode).toBe(404);
}

/** The archive's entries unpacked, a section's JSON changed, packed again with fresh checksums. */
async function repack(mutate: Record<string, (part: Record<string, unknown>) => void>, out: string): Promise<void> {
  const dir = await fsp.mkdtemp(path.join(work, 'repack-'));
  const entries = await extractTar(fs.createReadStream(archive), dir, () => true, 2 ** 32);
  for (const [section, change] of Object.entries(mutate)) {
    const file = path.join(dir, `sections/${section}.json`);
    const part = JSON.parse(await fsp.readFile(file, 'utf8'));
    change(part);
    await fsp.writeFile(file, JSON.stringify(part));
  }
  const sums: Record<string, string> = {};
  const tar = new TarWriter(fs.createWriteStream(out));
  for (const e of entries) {
    if (e.name === 'checksums.json') continue;
    const bytes = await fsp.readFile(path.join(dir, e.name));
    sums[e.name] = await tar.add(e.name, bytes.length, bytes);
  }
  const sumBytes = Buffer.from(JSON.stringify(sums));
  await tar.add('checksums.json', sumBytes.length, sumBytes);
  await tar.finish();
}

beforeAll(async () => {
  work = await fsp.mkdtemp(path.join(os.tmpdir(), 'hostbase-site-backup-'));
  archive = path.join(work, 'site.tar.gz');
  a = await buildTestApp({ PLATFORM_DOMAIN: 'a.test' }, noCa);
  p = await createProject(a);
  const token = p.dev.token;

  deploymentId = await manifestDeploy(a, p, FILES);
  // What a build records (a Next.js app built to a Node server would run this argv); set here
  // rather than built, the static files above still being what is served.
  await a.database.query("UPDATE site_deployments SET framework = 'Next.js', runtime = 'static', command = $2::text::jsonb WHERE id = $1", [deploymentId, JSON.stringify(COMMAND)]);
  seenDeployment = await deploymentRow(a, deploymentId);
  expect(seenDeployment.rules).toMatchObject({ redirects: [expect.anything(), expect.anything()] });
  const [{ n: blobs }] = await a.database.query<{ n: number }>('SELECT count(*)::int AS n FROM site_manifests WHERE deployment_id = $1', [deploymentId]);
  expect(blobs).toBe(1);
  expect(await a.app.deps.objectStore.exists(`sites/${p.id}/${deploymentId}/archive.zip`)).toBe(false);
  await expectSiteServes(a);

  expect((await a.post(`/project/${p.id}/hosting/env/set`, { variables: [{ name: 'API_BASE', value: 'https://api.shop.example' }, { name: 'STRIPE_KEY', value: 'sk_live_secret', secret: true }] }, token)).statusCode).toBe(200);
  expect((await a.post(`/project/${p.id}/hosting/build-settings/set`, SETTINGS, token)).statusCode).toBe(200);
  // Custom domains need a paid plan and DNS to add and verify: their rows are written as verify
  // leaves them (evil.a.test as an edited archive could name it: a subdomain of the target's own).
  await a.database.query(
    `INSERT INTO site_domains (project_id, hostname, verified_at, cert_pem, key_sealed, cert_expires_at) VALUES
      ($1, 'www.shop.example', now(), 'CERT', 'SEALED KEY', now() + interval '60 days'),
      ($1, 'pending.shop.example', NULL, NULL, NULL, NULL),
      ($1, 'taken.example', now(), NULL, NULL, NULL),
      ($1, 'evil.a.test', now(), NULL, NULL, NULL)`,
    [p.id],
  );

  const result = await exportProject(depsOf(a), p.id, archive);
  expect(result.manifest.counts.deployments).toBe(1);
  expect(result.manifest.version).toBe(2);

  b = await buildTestApp({ PLATFORM_DOMAIN: 'a.test' }, noCa);
  ownerB = await registerDeveloper(b);
  // taken.example is already another project's verified name on the target.
  const other = await createProject(b);
  await b.database.query("INSERT INTO site_domains (project_id, hostname, verified_at) VALUES ($1, 'taken.example', now())", [other.id]);
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await c?.close();
  await fsp.rm(work, { recursive: true, force: true });
});

test('the archive holds the manifest deployment as a zip, the secret plain and no certificate', async () => {
  const dir = await fsp.mkdtemp(path.join(work, 'look-'));
  await extractTar(fs.createReadStream(archive), dir, () => true, 2 ** 32);
  const read = async (section: string) => JSON.parse(await fsp.readFile(path.join(dir, `sections/${section}.json`), 'utf8'));
  const data = { ...(await read('hosting')), ...(await read('domains')) };
  expect(data.site.deployment).toMatchObject({ id: deploymentId, framework: 'Next.js', runtime: 'static', command: COMMAND, rules: seenDeployment.rules, entry: null });
  const zip = await fsp.readFile(path.join(dir, data.site.deployment.member));
  expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
  expect(data.site_env).toEqual([
    { name: 'API_BASE', value: 'https://api.shop.example', secret: false, updated_at: expect.any(String) },
    { name: 'STRIPE_KEY', value: 'sk_live_secret', secret: true, updated_at: expect.any(String) },
  ]);
  expect(data.build_settings).toMatchObject({ ...SETTINGS, root_directory: null });
  expect(data.domains.map((d: { hostname: string }) => d.hostname).sort()).toEqual(['evil.a.test', 'pending.shop.example', 'taken.example', 'www.shop.example']);
  expect(JSON.stringify(data)).not.toContain('SEALED KEY');
  expect(JSON.stringify(data)).not.toContain('CERT');
  expect(JSON.stringify(await read('domains'))).not.toContain('CERT');
});

describe('imported into another platform', () => {
  let warnings: string[];
  beforeAll(async () => {
    const r = await importProject(depsOf(b), archive, ownerB.email);
    expect(r.projectId).toBe(p.id);
    warnings = r.warnings;
  });

  test('the manifest deployment is an archive deployment there, serving the same files with its redirects', async () => {
    expect(await b.app.deps.objectStore.exists(`sites/${p.id}/${deploymentId}/archive.zip`)).toBe(true);
    const [{ n }] = await b.database.query<{ n: number }>('SELECT count(*)::int AS n FROM site_manifests');
    expect(n).toBe(0);
    expect(await deploymentRow(b, deploymentId)).toEqual(seenDeployment);
    await expectSiteServes(b);
  });

  test('the variables, the secret sealed with this platform\'s secret, reach the site as before', async () => {
    const listed = (await b.post(`/project/${p.id}/hosting/env`, undefined, ownerB.token)).json();
    expect(listed.variables).toEqual([
      { name: 'API_BASE', secret: false, value: 'https://api.shop.example', updated_at: expect.any(String) },
      { name: 'STRIPE_KEY', secret: true, value: null, updated_at: expect.any(String) },
    ]);
    const env = await new SiteEnv(new HostingRepository(b.database), b.app.deps.secrets).runtimeEnv(p.id);
    expect(env.vars).toEqual({ API_BASE: 'https://api.shop.example', STRIPE_KEY: 'sk_live_secret' });
    const [sealed] = await b.database.query<{ value: string }>("SELECT value FROM site_env WHERE project_id = $1 AND name = 'STRIPE_KEY'", [p.id]);
    expect(sealed.value).not.toContain('sk_live_secret');
    expect(() => a.app.deps.secrets.open(sealed.value)).toThrow();
  });

  test('the build settings', async () => {
    expect((await b.post(`/project/${p.id}/hosting/build-settings`, undefined, ownerB.token)).json()).toMatchObject({ ...SETTINGS, root_directory: null, install_command: null, start_command: null });
  });

  test('the custom domains, without certificates; a name another project verified here comes back unverified, a subdomain of this platform not at all, each with a warning', async () => {
    const rows = await b.database.query<{ hostname: string; verified: boolean; cert_pem: string | null; key_sealed: string | null }>(
      'SELECT hostname, verified_at IS NOT NULL AS verified, cert_pem, key_sealed FROM site_domains WHERE project_id = $1 ORDER BY hostname',
      [p.id],
    );
    expect(rows).toEqual([
      { hostname: 'pending.shop.example', verified: false, cert_pem: null, key_sealed: null },
      { hostname: 'taken.example', verified: false, cert_pem: null, key_sealed: null },
      { hostname: 'www.shop.example', verified: true, cert_pem: null, key_sealed: null },
    ]);
    expect(warnings).toEqual([
      expect.stringMatching(/^The custom domain evil\.a\.test was not imported: /),
      'The custom domain taken.example is verified by another project on this platform: imported unverified; verify it again once that project releases it',
    ]);
    // The verified name serves the site here (plain HTTP until this platform has its certificate).
    const served = await b.app.inject({ url: '/about.html', headers: { host: 'www.shop.example' } });
    expect({ status: served.statusCode, body: served.body }).toEqual({ status: 200, body: FILES['about.html'] });
    const pending = await b.app.inject({ url: '/', headers: { host: 'pending.shop.example' } });
    expect(pending.statusCode).toBe(404);
  });
});

test('an archive without the site\'s settings (as one written before they were carried) still imports: nothing of them is restored, the site serves', async () => {
  const older = path.join(work, 'older.tar.gz');
  await repack({
    hosting: (part) => {
      delete part.site_env;
      delete part.build_settings;
      const dep = (part.site as { deployment: Record<string, unknown> }).deployment;
      for (const k of ['rules', 'framework', 'command', 'runtime']) delete dep[k];
    },
    domains: (part) => delete part.domains,
  }, older);
  c = await buildTestApp({ PLATFORM_DOMAIN: 'a.test' }, noCa);
  const owner = await registerDeveloper(c);
  const r = await importProject(depsOf(c), older, owner.email);
  expect(r.warnings).toEqual([]);
  expect(await deploymentRow(c, deploymentId)).toMatchObject({ framework: null, runtime: null, command: null, rules: null, status: 'live' });
  for (const table of ['site_env', 'site_build_settings', 'site_domains']) {
    const [{ n }] = await c.database.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    expect({ table, n }).toEqual({ table, n: 0 });
  }
  expect((await site(c, p, '/assets/app.js')).body).toBe(FILES['assets/app.js']);
});

testSandboxed('a deployment built from source round-trips with what its build recorded (framework, runtime, its built archive)', async () => {
  const built = await createProject(a);
  await onPlan(a, built.dev, 'enterprise');
  expect((await a.post(`/project/${built.id}/hosting/build-settings/set`, SETTINGS, built.dev.token)).statusCode).toBe(200);
  const res = await deploy(a, built, makeZip([{ name: 'package.json', data: JSON.stringify({ name: 'static-build', private: true }) }, { name: 'README.md', data: 'source' }]), 'Static');
  expect(res.statusCode).toBe(202);
  const id = res.json().deployment.id as string;
  const stream = await a.app.inject({ method: 'GET', url: `/api/project/${built.id}/deployments/${id}/log-stream`, headers: { authorization: `Bearer ${built.dev.token}` } });
  expect(JSON.parse(/event: end\ndata: (.*)\n/.exec(stream.payload)![1]).status).toBe('live');
  const before = await deploymentRow(a, id);
  expect(before).toMatchObject({ status: 'live', runtime: 'static' });
  expect(before.framework).toEqual(expect.any(String));
  expect((await site(a, built, '/')).body).toBe('hi\n');

  const file = path.join(work, 'built.tar.gz');
  await exportProject(depsOf(a), built.id, file);
  const owner = await registerDeveloper(b);
  await importProject(depsOf(b), file, owner.email);
  expect(await deploymentRow(b, id)).toEqual(before);
  expect((await b.post(`/project/${built.id}/hosting/build-settings`, undefined, owner.token)).json()).toMatchObject(SETTINGS);
  expect((await site(b, built, '/')).body).toBe('hi\n');
});
