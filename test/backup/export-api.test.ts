// POST /api/project/{projectId}/export: the owner downloads the project's archive (the same format
// the command writes, importable elsewhere); nobody else can, the call is in the activity log, and
// nothing is left on the instance's disk.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, registerDeveloper, upload, type Project } from '../helpers/factories';
import { extractTar } from '../../server/src/modules/backup/tar';
import { backupDeps, importProject } from '../../server/src/modules/backup';

jest.setTimeout(60_000);

let t: TestApp;
let p: Project;
let work: string;
const exportOf = (id: string, token?: string, payload?: unknown) =>
  t.app.inject({ method: 'POST', url: `/api/project/${id}/export`, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(payload === undefined ? {} : { payload: payload as object }) });

beforeAll(async () => {
  t = await buildTestApp();
  p = await createProject(t);
  expect((await upload(t, p.dev.token, p.id, [{ name: 'a.txt', content: 'hello' }])).statusCode).toBe(200);
  work = await fsp.mkdtemp(path.join(os.tmpdir(), 'hostbase-export-api-'));
});
afterAll(async () => {
  await t.close();
  await fsp.rm(work, { recursive: true, force: true });
});

test('the owner gets the archive as an attachment; it holds the project and nothing stays on disk', async () => {
  const res = await exportOf(p.id, p.dev.token, {});
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/gzip');
  expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="${p.subdomain}-\\d{4}-\\d{2}-\\d{2}\\.tar\\.gz"$`));
  expect(res.headers['cache-control']).toBe('no-store');
  expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
  const dir = path.join(work, 'x');
  await fsp.mkdir(dir);
  const entries = await extractTar(Readable.from([res.rawPayload]), dir, () => true, 2 ** 30);
  const sections = ['projects', 'auth-users', 'database', 'domains', 'hosting', 'smtp', 'storage'];
  expect(entries.map((e) => e.name)).toEqual(['manifest.json', ...sections.map((s) => `sections/${s}.json`), 'objects/000001', 'checksums.json']);
  const manifest = JSON.parse(await fsp.readFile(path.join(dir, 'manifest.json'), 'utf8'));
  expect(manifest).toMatchObject({ format: 'hostbase-project', version: 2, project_id: p.id, sections, counts: { files: 1 } });
  expect(await fsp.readFile(path.join(dir, 'objects/000001'), 'utf8')).toBe('hello');
  // The same body with no JSON body at all.
  expect((await exportOf(p.id, p.dev.token)).statusCode).toBe(200);
  const left = path.join(t.dataDir, 'backup', 'api');
  // The folder goes when the response stream closes, a moment after the last byte.
  const remaining = () => fs.readdirSync(left).filter((n) => n !== 'work');
  for (let i = 0; i < 100 && remaining().length; i++) await new Promise((r) => setTimeout(r, 50));
  expect(remaining()).toEqual([]);
  expect(fs.existsSync(path.join(left, 'work')) ? fs.readdirSync(path.join(left, 'work')) : []).toEqual([]);

  const activity = (await t.post('/activity', {}, p.dev.token)).json();
  expect(JSON.stringify(activity)).toContain(`Exported project \\"Project ${p.subdomain}\\" (${p.subdomain}) to an archive`);
});

test('the downloaded archive imports into another platform', async () => {
  const res = await exportOf(p.id, p.dev.token, {});
  const file = path.join(work, 'download.tar.gz');
  await fsp.writeFile(file, res.rawPayload);
  const other = await buildTestApp();
  try {
    const owner = await registerDeveloper(other);
    // Roles are per PostgreSQL server; the source keeps its project here, so the target gets a
    // project without a database made yet (this one never had a database call): no clash.
    const r = await importProject(backupDeps(other.app.deps, other.app.projects.lifecycles, path.join(other.dataDir, 'backup')), file, owner.email);
    expect(r.projectId).toBe(p.id);
    const files = (await other.post(`/project/${p.id}/object-storage/files`, {}, owner.token)).json();
    expect(JSON.stringify(files)).toContain('a.txt');
  } finally {
    await other.close();
  }
});

test('another account, no token, an unknown project, a body with fields: refused, nothing exported', async () => {
  const stranger = await registerDeveloper(t);
  const theirs = await exportOf(p.id, stranger.token, {});
  expect(theirs.statusCode).toBe(404);
  expect(theirs.body).not.toContain('hostbase-project');
  expect((await exportOf(p.id)).statusCode).toBe(401);
  expect((await exportOf('00000000-0000-4000-8000-000000000000', p.dev.token, {})).statusCode).toBe(404);
  const extra = await exportOf(p.id, p.dev.token, { everything: true });
  expect(extra.statusCode).toBe(400);
  expect(extra.json().message).toMatch(/body/);
});

test('10 exports an hour per account, then 429 with Retry-After', async () => {
  const dev = await registerDeveloper(t);
  const mine = await createProject(t, dev);
  const codes: number[] = [];
  for (let i = 0; i < 11; i++) codes.push((await exportOf(mine.id, dev.token, {})).statusCode);
  expect(codes.slice(0, 10)).toEqual(Array(10).fill(200));
  const refused = await exportOf(mine.id, dev.token, {});
  expect(refused.statusCode).toBe(429);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  expect(codes[10]).toBe(429);
});
