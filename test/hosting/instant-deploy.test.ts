// Instant redeploys (instant-deploy.ts): a manifest of digests, only the missing files uploaded,
// a finish that makes it live; served files, refusals (wrong digest, another account, hostile
// paths) and a fill from the object store as another instance would do it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildTestApp, type TestApp } from '../helpers/app';
import { multipart, registerDeveloper } from '../helpers/factories';
import { createSiteProject, site, type SiteProject } from './site-helpers';
import { blobKey, SiteFiles } from '../../server/src/modules/hosting/deploy/site-files';

jest.setTimeout(60_000);

let t: TestApp;
let p: SiteProject;

const sha = (s: string | Buffer) => crypto.createHash('sha256').update(s).digest('hex');

function manifest(files: Record<string, string>, type = 'Static', token = p.dev.token, projectId = p.id) {
  return t.app.inject({ method: 'POST', url: `/api/project/${projectId}/deployments/manifest`, headers: { authorization: `Bearer ${token}` }, payload: { type, files } });
}
function upload(deploymentId: string, blobs: { name: string; content: string | Buffer }[], token = p.dev.token, projectId = p.id) {
  const { body, contentType } = multipart(blobs.map((b) => ({ field: 'file', name: b.name, type: 'application/octet-stream', content: b.content })));
  return t.app.inject({ method: 'POST', url: `/api/project/${projectId}/deployments/${deploymentId}/files`, headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, payload: body });
}
function finish(deploymentId: string, token = p.dev.token, projectId = p.id) {
  return t.app.inject({ method: 'POST', url: `/api/project/${projectId}/deployments/${deploymentId}/finish`, headers: { authorization: `Bearer ${token}` }, payload: {} });
}

/** A whole manifest deploy: returns the deployment id and what the platform asked for. */
async function deployFiles(files: Record<string, string>): Promise<{ id: string; asked: string[] }> {
  const m = await manifest(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, sha(v)])));
  expect(m.statusCode).toBe(200);
  const { deployment_id: id, missing } = m.json() as { deployment_id: string; missing: string[] };
  const byDigest = new Map(Object.values(files).map((v) => [sha(v), v]));
  if (missing.length) {
    const u = await upload(id, missing.map((d) => ({ name: d, content: byDigest.get(d)! })));
    if (u.statusCode !== 200) throw new Error(`upload: ${u.statusCode} ${u.payload}`);
    expect(u.json().missing).toEqual([]);
  }
  const f = await finish(id);
  expect(f.statusCode).toBe(200);
  expect(f.json().deployment).toMatchObject({ id, status: 'live', live: true });
  return { id, asked: missing };
}

const v1 = {
  'index.html': '<title>v1</title>',
  'about.html': '<title>about</title>',
  'assets/app.js': 'console.log("app");',
  'assets/copy.js': 'console.log("app");', // same bytes: one upload
  '_redirects': '/old /about.html 301',
};

beforeAll(async () => {
  t = await buildTestApp();
  p = await createSiteProject(t);
});
afterAll(() => t.close());

test('the first deploy asks for every distinct file; a 1-file change asks for that file only and serves it beside the old ones', async () => {
  const first = await deployFiles(v1);
  expect(first.asked.sort()).toEqual([...new Set(Object.values(v1).map(sha))].sort());
  expect((await site(t, p, '/')).payload).toContain('v1');
  expect((await site(t, p, '/old')).headers.location).toBe('/about.html');

  const v2 = { ...v1, 'index.html': '<title>v2</title>' };
  const second = await deployFiles(v2);
  expect(second.asked).toEqual([sha(v2['index.html'])]);
  expect((await site(t, p, '/')).payload).toContain('v2');
  expect((await site(t, p, '/about')).payload).toContain('about');
  expect((await site(t, p, '/assets/app.js')).payload).toBe(v1['assets/app.js']);
  expect((await site(t, p, '/assets/copy.js')).payload).toBe(v1['assets/copy.js']);
  expect((await site(t, p, '/_redirects')).statusCode).toBe(404);

  // Rollback to the first deployment still works (its files are shared, not moved).
  const back = await t.app.inject({ method: 'POST', url: `/api/project/${p.id}/deployments/${first.id}/activate`, headers: { authorization: `Bearer ${p.dev.token}` } });
  expect(back.statusCode).toBe(200);
  expect((await site(t, p, '/')).payload).toContain('v1');
});

test('another instance lays the deployment out from the object store (no local copy, no local blobs)', async () => {
  const v3 = { ...v1, 'index.html': '<title>v3 elsewhere</title>' };
  const { id } = await deployFiles(v3);
  const hosting = path.join(t.config.dataDir, 'hosting');
  fs.rmSync(path.join(hosting, 'cache', id), { recursive: true, force: true });
  fs.rmSync(path.join(hosting, 'blobs', p.id), { recursive: true, force: true });
  // A SiteFiles on another hosting folder over the same object store: what a second instance has.
  const elsewhere = new SiteFiles(t.app.deps.objectStore, path.join(t.config.dataDir, 'hosting-other'));
  const dir = await elsewhere.ensureLocal(p.id, id);
  expect(fs.readFileSync(path.join(dir, 'index.html'), 'utf8')).toBe(v3['index.html']);
  expect(fs.readFileSync(path.join(dir, 'assets', 'app.js'), 'utf8')).toBe(v3['assets/app.js']);
});

test('a file whose bytes do not match its digest is refused, and finish waits for the missing file', async () => {
  const files = { 'index.html': '<title>digest</title>', 'x.txt': 'unique-' + crypto.randomUUID() };
  const m = await manifest(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, sha(v)])));
  const id = m.json().deployment_id as string;
  const wrong = await upload(id, [{ name: sha(files['x.txt']), content: 'something else' }]);
  expect(wrong.statusCode).toBe(400);
  expect(wrong.json().message).toMatch(/does not match its digest/);
  const notListed = await upload(id, [{ name: sha('not in the manifest'), content: 'not in the manifest' }]);
  expect(notListed.statusCode).toBe(400);
  expect(notListed.json().message).toMatch(/is not a digest of this deployment's manifest/);
  const badName = await upload(id, [{ name: 'file.bin', content: 'x' }]);
  expect(badName.statusCode).toBe(400);
  const early = await finish(id);
  expect(early.statusCode).toBe(400);
  expect(early.json().message).toMatch(/still missing/);
  expect((await site(t, p, '/')).payload).not.toContain('digest');
});

test('many files in one upload are stored a few at a time: the answer lists them in the order sent; a bad one fails the request with every recorded blob stored', async () => {
  const files: Record<string, string> = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f/${i}.txt`, `file ${i} ${crypto.randomUUID()}`]));
  const blobs = Object.values(files).map((v) => ({ name: sha(v), content: v }));
  files['index.html'] = `<title>many ${crypto.randomUUID()}</title>`;
  const m = await manifest(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, sha(v)])));
  expect(m.statusCode).toBe(200);
  const id = m.json().deployment_id as string;
  blobs.push({ name: sha(files['index.html']), content: files['index.html'] });

  // The 30th is not its digest's bytes: a 400, after stores of the ones before it were started.
  const bad = await upload(id, [...blobs.slice(0, 29), { name: blobs[29].name, content: 'not these bytes' }, ...blobs.slice(30)]);
  expect(bad.statusCode).toBe(400);
  expect(bad.json().message).toMatch(/does not match its digest/);
  // Whatever the platform recorded is in the object store: no row without its bytes.
  const rows = await t.database.query<{ digest: string }>('SELECT digest FROM site_blobs WHERE project_id = $1 AND digest = ANY($2::text[])', [p.id, blobs.map((b) => b.name)]);
  expect(rows.length).toBeGreaterThan(0);
  for (const r of rows) await expect(t.app.deps.objectStore.stat(blobKey(p.id, r.digest))).resolves.toBeDefined();
  expect(rows.map((r) => r.digest)).not.toContain(blobs[29].name);

  // The rest goes up again; the answer lists what was sent, in order, and nothing is missing.
  const rest = blobs.filter((b) => !rows.some((r) => r.digest === b.name));
  const ok = await upload(id, rest);
  expect(ok.statusCode).toBe(200);
  expect(ok.json()).toMatchObject({ received: rest.map((b) => b.name), missing: [] });
  expect((await finish(id)).statusCode).toBe(200);
  expect((await site(t, p, '/f/29.txt')).payload).toBe(files['f/29.txt']);
});

test('another account\'s token is refused at every step, with nothing leaked', async () => {
  const stranger = await registerDeveloper(t);
  const m = await manifest({ 'index.html': sha('<title>x</title>') });
  const id = m.json().deployment_id as string;
  expect((await manifest({ 'index.html': sha('y') }, 'Static', stranger.token)).statusCode).toBe(404);
  const u = await upload(id, [{ name: sha('<title>x</title>'), content: '<title>x</title>' }], stranger.token);
  expect(u.statusCode).toBe(404);
  const f = await finish(id, stranger.token);
  expect(f.statusCode).toBe(404);
  expect(f.payload).not.toContain(id);
  // Their own project cannot name this deployment either.
  const theirs = await createSiteProject(t, stranger);
  expect((await finish(id, stranger.token, theirs.id)).statusCode).toBe(404);
});

describe('hostile manifests are refused (400, nothing created)', () => {
  const d = sha('x');
  test.each([
    ['parent folder', { '../etc/passwd': d, 'index.html': d }, /unsafe path/],
    ['nested parent', { 'a/../../b': d, 'index.html': d }, /unsafe path/],
    ['absolute', { '/etc/passwd': d, 'index.html': d }, /absolute path/],
    ['windows absolute', { 'C:/x': d, 'index.html': d }, /absolute path/],
    ['NUL', { 'a\u0000b': d, 'index.html': d }, /NUL/],
    ['backslash', { 'a\\..\\b': d, 'index.html': d }, /NUL, control character or backslash/],
    ['empty segment', { 'a//b': d, 'index.html': d }, /unsafe path/],
    ['dot segment', { './index.html': d }, /unsafe path/],
    ['file and folder', { a: d, 'a/b': d, 'index.html': d }, /both as a file and as a folder/],
    // Past the 1 MB body limit's worth of 1 KB paths sharing their folders: found in linear time.
    ['file and folder deep in long paths', { ...Object.fromEntries(Array.from({ length: 700 }, (_, i) => [`${'a/'.repeat(480)}f${i}`, d])), [`${'a/'.repeat(480)}f699/x`]: d, 'index.html': d }, /"(a\/){480}f699" both as a file and as a folder/],
    ['no index.html', { 'readme.txt': d }, /No index.html/],
    ['bad digest', { 'index.html': 'abc' }, /must match pattern|SHA-256/],
    ['upper-case digest', { 'index.html': d.toUpperCase() }, /must match pattern|SHA-256/],
  ])('%s', async (_n, files, message) => {
    const before = await t.database.query<{ n: string }>('SELECT count(*) AS n FROM site_deployments WHERE project_id = $1', [p.id]);
    const res = await manifest(files as Record<string, string>);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
    const after = await t.database.query<{ n: string }>('SELECT count(*) AS n FROM site_deployments WHERE project_id = $1', [p.id]);
    expect(Number(after[0].n)).toBe(Number(before[0].n));
  });

  test('too many files', async () => {
    const files: Record<string, string> = { 'index.html': d };
    for (let i = 0; i < 20_000; i++) files[`f${i}`] = d;
    const res = await manifest(files);
    expect([400, 413]).toContain(res.statusCode); // past the JSON body limit or the entry limit
  });
});
