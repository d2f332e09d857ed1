// File listings keep pages of files and the owner's storage in use in each instance's memory
// (storage.service.ts, platform/lookup-cache.ts), dropped by the notices of migrations/0019. Against two
// instances on one database: a change made through one instance, or by any statement at all, is in
// the other's listing at once, not after a time.
import type { FastifyInstance } from 'fastify';
import { buildTestApp, secondInstance, type TestApp } from '../helpers/app';
import { createProject, multipart, onPlan, registerDeveloper, type Developer, type Project } from '../helpers/factories';

jest.setTimeout(60_000);

let t: TestApp;
let a: FastifyInstance;
let b: FastifyInstance;
let second: Awaited<ReturnType<typeof secondInstance>>;
let dev: Developer;
beforeAll(async () => {
  t = await buildTestApp();
  a = t.app;
  second = await secondInstance(t);
  b = second.app;
  dev = await registerDeveloper(t);
  await onPlan(t, dev, 'enterprise'); // more projects than Hobby's 3: this file is not about plan limits
});
afterAll(async () => {
  await second.close();
  await t.close();
});

interface Listing {
  files: { object_id: string; object_size: number }[];
  total: number;
  usage_bytes: number;
  files_bytes: number;
  hosting_bytes: number;
  quota_bytes?: number;
}

/** GET /api/storage/v1/objects on an instance, with the project's bucket key. */
async function list(app: FastifyInstance, project: Project): Promise<Listing> {
  const res = await app.inject({ method: 'GET', url: '/api/storage/v1/objects', headers: { 'x-api-key': project.bucketKey } });
  expect(res.statusCode).toBe(200);
  return res.json() as Listing;
}

/** The console's listing (POST /api/project/{id}/object-storage/files) on an instance. */
async function consoleList(app: FastifyInstance, project: Project): Promise<Listing> {
  const res = await app.inject({ method: 'POST', url: `/api/project/${project.id}/object-storage/files`, headers: { authorization: `Bearer ${dev.token}` }, payload: { page: 1 } });
  expect(res.statusCode).toBe(200);
  return res.json() as Listing;
}

async function uploadThrough(app: FastifyInstance, project: Project, name: string, bytes: number): Promise<string> {
  const { body, contentType } = multipart([{ name, content: Buffer.alloc(bytes, 7) }]);
  const res = await app.inject({ method: 'POST', url: '/api/storage/v1/objects', headers: { 'x-api-key': project.bucketKey, 'content-type': contentType }, payload: body });
  expect(res.statusCode).toBe(200);
  return res.json().file.object_id as string;
}

/** Both instances have listed the project twice: its page and its owner's usage are kept. */
async function warm(project: Project): Promise<void> {
  for (const app of [a, b]) for (let i = 0; i < 2; i++) await list(app, project);
}

const ids = (l: Listing) => l.files.map((f) => f.object_id).sort();

test('a listing is served from memory: a second read of an unchanged project reads nothing', async () => {
  const project = await createProject(t, dev);
  await uploadThrough(a, project, 'a.txt', 10);
  await list(b, project);
  const before = b.deps.lookups.size;
  const first = await list(b, project);
  expect(b.deps.lookups.size).toBe(before);
  expect(await list(b, project)).toEqual(first);
});

test('a file uploaded through A is in B\'s listing at once, with the usage; deleted through B it is gone from A\'s', async () => {
  const project = await createProject(t, dev);
  await uploadThrough(a, project, 'first.txt', 100);
  await warm(project);
  // The account's other projects (earlier tests) count too.
  const base = (await list(b, project)).usage_bytes;
  const id = await uploadThrough(a, project, 'second.txt', 250);
  for (const app of [a, b]) {
    const listed = await list(app, project);
    expect(listed.total).toBe(2);
    expect(ids(listed)).toContain(id);
    expect(listed).toMatchObject({ files_bytes: base + 250, usage_bytes: base + 250 });
    expect((await consoleList(app, project)).total).toBe(2);
  }

  const deleted = await b.inject({ method: 'DELETE', url: `/api/storage/v1/objects/${id}`, headers: { 'x-api-key': project.bucketKey } });
  expect(deleted.statusCode).toBe(200);
  for (const app of [a, b]) {
    const listed = await list(app, project);
    expect(ids(listed)).not.toContain(id);
    expect(listed).toMatchObject({ total: 1, files_bytes: base, usage_bytes: base });
  }
});

test('the usage is the account\'s: a file of another project, and that project deleted, change it everywhere at once', async () => {
  const project = await createProject(t, dev);
  const other = await createProject(t, dev);
  await uploadThrough(a, project, 'mine.txt', 40);
  await warm(project);
  const base = (await list(b, project)).usage_bytes;
  await uploadThrough(a, other, 'theirs.txt', 60);
  for (const app of [a, b]) expect(await list(app, project)).toMatchObject({ total: 1, usage_bytes: base + 60 });

  const gone = await a.inject({ method: 'POST', url: `/api/project/${other.id}/delete`, headers: { authorization: `Bearer ${dev.token}` }, payload: { confirm: other.subdomain } });
  expect(gone.statusCode).toBe(200);
  for (const app of [a, b]) expect(await list(app, project)).toMatchObject({ total: 1, usage_bytes: base });
});

test('any statement counts: files and deployments changed in SQL, and a plan changed, are heard by both', async () => {
  const project = await createProject(t, dev);
  const id = await uploadThrough(a, project, 'x.txt', 10);
  await warm(project);
  const base = (await list(a, project)).usage_bytes;
  const both = () => Promise.all([a.deps.lookups.barrier(), b.deps.lookups.barrier()]);

  await t.database.query('UPDATE storage_objects SET object_size = 1000 WHERE object_id = $1', [id]);
  await both();
  for (const app of [a, b]) {
    const listed = await list(app, project);
    expect(listed.files[0].object_size).toBe(1000);
    expect(listed.usage_bytes).toBe(base + 990);
  }

  await t.database.query(
    `INSERT INTO site_deployments (project_id, type, status, stored_bytes) VALUES ($1, 'Static', 'failed', 5000)`,
    [project.id],
  );
  await both();
  for (const app of [a, b]) expect(await list(app, project)).toMatchObject({ hosting_bytes: 5000, usage_bytes: base + 990 + 5000 });
  await t.database.query(`DELETE FROM site_deployments WHERE project_id = $1`, [project.id]);
  await both();
  for (const app of [a, b]) expect(await list(app, project)).toMatchObject({ hosting_bytes: 0 });

  await t.database.query('DELETE FROM storage_objects WHERE object_id = $1', [id]);
  await both();
  for (const app of [a, b]) expect(await list(app, project)).toMatchObject({ total: 0, files: [], usage_bytes: base - 10 });

  expect((await list(b, project)).quota_bytes).toBeUndefined();
  await onPlan(t, dev, 'pro');
  await both();
  for (const app of [a, b]) expect((await list(app, project)).quota_bytes).toBe(10 * 1024 ** 3);
  await onPlan(t, dev, 'enterprise');
});
