// A project exported from one platform and imported into another (a different database, data
// directory, JWT secret and object store: files on disk there, an S3 server (s3rver) here): rows with their access rules, files, the live static site, end users
// who can sign in, the mail domain and mailboxes, and the app keys all come back; a corrupt,
// truncated, newer-format or clashing archive is refused with its reason and writes nothing.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, deploy, registerDeveloper, shareFile, upload, type Developer, type Project } from '../helpers/factories';
import { makeZip } from '../hosting/zips';
import { site } from '../hosting/site-helpers';
import { BackupError, backupDeps, exportProject, importProject, type BackupDeps } from '../../server/src/modules/backup';
import { TarWriter, extractTar } from '../../server/src/modules/backup/tar';

jest.setTimeout(120_000);

// s3rver is CommonJS without types; this is the little of it used here.
const S3rver = require('s3rver') as new (opts: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };
let s3server: InstanceType<typeof S3rver>;

const depsOf = (t: TestApp): BackupDeps => backupDeps(t.app.deps, t.app.projects.lifecycles, path.join(t.dataDir, 'backup'));

let a: TestApp;
let b: TestApp;
let work: string;
let archive: string;
let project: Project;
let ownerB: Developer;
const USER = { email: 'reader@example.com', password: 'correct horse battery' };
const FILE = Buffer.from('%PDF-1.7 '.repeat(5000));
const SITE_HTML = '<!doctype html><title>Restored shop</title><h1>Hello again</h1>';

interface Seen {
  notes: unknown;
  notesAnonymous: unknown;
  prices: unknown;
  bucketKey: string;
  authKey: string;
  dkimPrivate: string;
  dkimPublic: string;
  filePath: string;
  privateFileId: string;
  mailboxes: unknown;
  settings: unknown;
}
let seen: Seen;

const db = (t: TestApp, p: Project, token: string, op: string, body: unknown) => t.post(`/project/${p.id}/database/${op}`, body, token);
const app = (t: TestApp, key: string, url: string, payload: unknown, bearer?: string) =>
  t.app.inject({ method: 'POST', url: '/api' + url, headers: { 'x-api-key': key, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) }, payload: payload as object });

async function signIn(t: TestApp, authKey: string) {
  return app(t, authKey, '/auth/v1/signin', USER);
}

async function countRows(t: TestApp, table: string): Promise<number> {
  const [r] = await t.database.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`);
  return Number(r.n);
}

async function objectsUnder(t: TestApp, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of t.app.deps.objectStore.list(prefix)) keys.push(o.key);
  return keys;
}

beforeAll(async () => {
  work = await fsp.mkdtemp(path.join(os.tmpdir(), 'hostbase-backup-'));
  archive = path.join(work, 'project.tar.gz');
  a = await buildTestApp({ PLATFORM_DOMAIN: 'a.test' });
  project = await createProject(a);
  const token = project.dev.token;

  // Auth settings and an end user.
  expect((await a.post(`/project/${project.id}/auth/settings`, { allowed_origins: ['https://shop.example'], block_common_passwords: false }, token)).statusCode).toBe(200);
  const up = await app(a, project.authKey, '/auth/v1/signup', USER);
  expect(up.statusCode).toBe(200);
  const endUserToken = up.json().access_token as string;

  // Two tables: one the owner rule guards (rows written by the end user), one with an identity
  // key, exact numerics, jsonb and a foreign key.
  expect((await db(a, project, token, 'create_table', { name: 'notes', columns: [{ name: 'body', type: 'text', not_null: true }], access: 'owner' })).statusCode).toBe(200);
  expect((await db(a, project, token, 'create_table', {
    name: 'prices',
    columns: [
      { name: 'amount', type: 'numeric', not_null: true },
      { name: 'meta', type: 'jsonb' },
      { name: 'at', type: 'timestamptz', default: 'now()' },
      { name: 'note_id', type: 'bigint', references: { table: 'notes', column: 'id' } },
    ],
    access: 'read',
  })).statusCode).toBe(200);
  const inserted = await app(a, project.authKey, '/db/v1/notes/insert', { rows: [{ body: 'first' }, { body: 'second' }] }, endUserToken);
  expect(inserted.statusCode).toBe(200);
  const noteId = inserted.json().rows[0].id;
  expect((await db(a, project, token, 'tables/prices/rows/insert', { rows: [
    { amount: '12345678901234567890.123456789', meta: { tags: ['a', 'b'], n: 1 }, note_id: noteId },
    { amount: '0.1', meta: null, note_id: null },
  ] })).statusCode).toBe(200);

  // A file, a live static site, a mail domain (verified) with a mailbox.
  // One shared (its share link must keep working), one private (it must stay so).
  const file = await upload(a, token, project.id, [{ name: 'report.pdf', type: 'application/pdf', content: FILE }]);
  expect(file.statusCode).toBe(200);
  const privateFile = await upload(a, token, project.id, [{ name: 'private.txt', content: 'private' }]);
  expect(privateFile.statusCode).toBe(200);
  const deployed = await deploy(a, project, makeZip([{ name: 'index.html', data: SITE_HTML }]), 'React');
  expect(deployed.statusCode).toBe(200);
  expect((await a.post(`/project/${project.id}/smtp/add_domain`, { domain: 'shop.example' }, token)).statusCode).toBe(200);
  await a.database.query('UPDATE smtp_domains SET verified = true, verified_at = now() WHERE project_id = $1', [project.id]);
  expect((await a.post(`/project/${project.id}/smtp/add_account`, { email: 'alice', domain: 'shop.example', password: 'Abcdefg1!' }, token)).statusCode).toBe(200);

  // What the source shows, to compare with the restored project.
  const [dkim] = await a.database.query<{ dkim_private_key: string; dkim_public_key: string }>('SELECT dkim_private_key, dkim_public_key FROM smtp_domains WHERE project_id = $1', [project.id]);
  seen = {
    notes: (await app(a, project.authKey, '/db/v1/notes/select', {}, endUserToken)).json(),
    prices: (await app(a, project.authKey, '/db/v1/prices/select', {})).json(),
    notesAnonymous: await app(a, project.authKey, '/db/v1/notes/select', {}).then((r) => ({ status: r.statusCode, body: r.json() })),
    bucketKey: project.bucketKey,
    authKey: project.authKey,
    dkimPrivate: a.app.deps.secrets.open(dkim.dkim_private_key),
    dkimPublic: dkim.dkim_public_key,
    filePath: await shareFile(a, token, project.id, file.json().file.object_id),
    privateFileId: privateFile.json().file.object_id,
    mailboxes: (await a.post(`/project/${project.id}/smtp/accounts`, { domain: 'shop.example' }, token)).json(),
    settings: (await a.post(`/project/${project.id}/auth/settings`, undefined, token)).json(),
  };
  expect((seen.notes as { rows: unknown[] }).rows).toHaveLength(2);

  const result = await exportProject(depsOf(a), project.id, archive);
  expect(result.manifest.counts).toEqual({ tables: 2, rows: 4, files: 2, end_users: 1, mailboxes: 1, deployments: 1 });
  expect(result.warnings).toEqual([]);
  expect(fs.statSync(archive).mode & 0o077).toBe(0);

  // The source is gone (PostgreSQL's roles are server-wide: both test databases share them).
  expect((await a.post(`/project/${project.id}/delete`, { confirm: project.subdomain }, token)).statusCode).toBeLessThan(300);

  s3server = new S3rver({ address: '127.0.0.1', port: 0, directory: path.join(work, 's3'), silent: true });
  const { port } = await s3server.run();
  b = await buildTestApp({ PLATFORM_DOMAIN: 'a.test', S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_ACCESS_KEY: 'S3RVER', S3_SECRET_KEY: 'S3RVER', S3_BUCKET: 'restored' });
  ownerB = await registerDeveloper(b);
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await s3server?.close();
  await fsp.rm(work, { recursive: true, force: true });
});

async function repack(mutate: (dir: string) => Promise<void>, out: string): Promise<void> {
  const dir = await fsp.mkdtemp(path.join(work, 'repack-'));
  const entries = await extractTar(fs.createReadStream(archive), dir, () => true, 2 ** 32);
  await mutate(dir);
  const sums: Record<string, string> = {};
  const tar = new TarWriter(fs.createWriteStream(out));
  for (const e of entries) {
    if (e.name === 'checksums.json') continue;
    const bytes = await fsp.readFile(path.join(dir, e.name));
    sums[e.name] = await tar.add(e.name, bytes.length, bytes);
  }
  const c = Buffer.from(JSON.stringify(sums));
  await tar.add('checksums.json', c.length, c);
  await tar.finish();
}

async function expectNothingWritten() {
  expect(await countRows(b, 'projects')).toBe(0);
  expect(await countRows(b, 'end_users')).toBe(0);
  expect(await countRows(b, 'project_databases')).toBe(0);
  expect(await objectsUnder(b, `projects/${project.id}/`)).toEqual([]);
  expect(await objectsUnder(b, `sites/${project.id}/`)).toEqual([]);
}

describe('refused archives write nothing', () => {
  test('a corrupt byte in the middle', async () => {
    const bad = path.join(work, 'corrupt.tar.gz');
    const bytes = await fsp.readFile(archive);
    bytes[Math.floor(bytes.length / 2)] ^= 0xff;
    await fsp.writeFile(bad, bytes);
    await expect(importProject(depsOf(b), bad, ownerB.email)).rejects.toThrow(/Not imported: the archive is (corrupt|truncated)/);
    await expectNothingWritten();
  });

  test('a truncated archive', async () => {
    const bad = path.join(work, 'truncated.tar.gz');
    const bytes = await fsp.readFile(archive);
    await fsp.writeFile(bad, bytes.subarray(0, bytes.length - 100));
    await expect(importProject(depsOf(b), bad, ownerB.email)).rejects.toThrow(/Not imported: the archive is (corrupt|truncated)/);
    await expectNothingWritten();
  });

  test('an entry changed after export (its checksum no longer matches)', async () => {
    const bad = path.join(work, 'tampered.tar.gz');
    const dir = await fsp.mkdtemp(path.join(work, 'tamper-'));
    const entries = await extractTar(fs.createReadStream(archive), dir, () => true, 2 ** 32);
    const tar = new TarWriter(fs.createWriteStream(bad));
    for (const e of entries) {
      let bytes = await fsp.readFile(path.join(dir, e.name));
      if (e.name === 'objects/000001') bytes = Buffer.concat([bytes, Buffer.from('x')]);
      await tar.add(e.name, bytes.length, bytes);
    }
    await tar.finish();
    await expect(importProject(depsOf(b), bad, ownerB.email)).rejects.toThrow('Not imported: the archive is corrupt (objects/000001 does not match its checksum)');
    await expectNothingWritten();
  });

  test('a newer format version', async () => {
    const newer = path.join(work, 'newer.tar.gz');
    await repack(async (dir) => {
      const m = JSON.parse(await fsp.readFile(path.join(dir, 'manifest.json'), 'utf8'));
      await fsp.writeFile(path.join(dir, 'manifest.json'), JSON.stringify({ ...m, version: 3, source_version: '9.0.0' }));
    }, newer);
    await expect(importProject(depsOf(b), newer, ownerB.email)).rejects.toThrow(
      'The archive has format version 3, written by a newer Hostbase (9.0.0); this one reads format version 2 at most. Upgrade this platform and import again.',
    );
    await expectNothingWritten();
  });

  test('rows the database refuses halfway: the files already stored are removed again', async () => {
    const bad = path.join(work, 'bad-row.tar.gz');
    await repack(async (dir) => {
      const { database } = JSON.parse(await fsp.readFile(path.join(dir, 'sections/database.json'), 'utf8'));
      const file = path.join(dir, database.tables.find((t: { name: string }) => t.name === 'prices').member);
      const lines = (await fsp.readFile(file, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
      lines[0][1] = 'not a number'; // amount (numeric)
      await fsp.writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    }, bad);
    await expect(importProject(depsOf(b), bad, ownerB.email)).rejects.toThrow(/Not imported: the archive's rows were refused by the database .*numeric.*Nothing was written/);
    await expectNothingWritten();
    const [roles] = await b.database.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_roles WHERE rolname LIKE $1", [`hb_${project.id.replace(/-/g, '')}%`]);
    expect(roles.n).toBe(0);
  });

  test('an owner who has no account here', async () => {
    await expect(importProject(depsOf(b), archive, 'nobody@example.com')).rejects.toThrow('No account with the e-mail nobody@example.com on this platform: register it first, then import');
    await expectNothingWritten();
  });

  test('not an archive at all', async () => {
    const bad = path.join(work, 'not.tar.gz');
    await fsp.writeFile(bad, 'hello');
    await expect(importProject(depsOf(b), bad, ownerB.email)).rejects.toThrow(/Not imported: the archive is corrupt or not a \.tar\.gz/);
    await expectNothingWritten();
  });
});

describe('the restored project', () => {
  beforeAll(async () => {
    const r = await importProject(depsOf(b), archive, ownerB.email);
    expect(r.projectId).toBe(project.id);
  });

  test('belongs to the new owner, with the same keys', async () => {
    const list = (await b.post('/projects', undefined, ownerB.token)).json();
    expect(JSON.stringify(list)).toContain(project.id);
    expect((await b.post(`/project/${project.id}/bucket-details`, undefined, ownerB.token)).json().api_key).toBe(seen.bucketKey);
    expect((await b.post(`/project/${project.id}/authentication-details`, {}, ownerB.token)).json().api_key).toBe(seen.authKey);
    // The key is sealed with this platform's secret now.
    const [k] = await b.database.query<{ key_enc: string }>("SELECT key_enc FROM project_keys WHERE project_id = $1 AND kind = 'bucket'", [project.id]);
    expect(b.app.deps.secrets.open(k.key_enc)).toBe(seen.bucketKey);
    expect((await b.post(`/project/${project.id}/auth/settings`, undefined, ownerB.token)).json()).toEqual(seen.settings);
  });

  test('its end users sign in with their passwords and see their own rows, the same rows', async () => {
    const res = await signIn(b, seen.authKey);
    expect(res.statusCode).toBe(200);
    const token = res.json().access_token;
    expect((await app(b, seen.authKey, '/db/v1/notes/select', {}, token)).json()).toEqual(seen.notes);
    expect((await app(b, seen.authKey, '/db/v1/prices/select', {})).json()).toEqual(seen.prices);
    // Access rules came back: without a signed-in user the owner rule shows nothing, as before.
    const anonymous = await app(b, seen.authKey, '/db/v1/notes/select', {});
    expect({ status: anonymous.statusCode, body: anonymous.json() }).toEqual(seen.notesAnonymous);
    expect((anonymous.json() as { rows?: unknown[] }).rows ?? []).toEqual([]);
    // Identity keys go on from where they were.
    const more = await app(b, seen.authKey, '/db/v1/notes/insert', { rows: [{ body: 'third' }] }, token);
    expect(more.statusCode).toBe(200);
    expect(Number(more.json().rows[0].id)).toBe(3);
    expect((await signIn(b, seen.authKey)).statusCode).toBe(200);
    expect((await app(b, seen.authKey, '/auth/v1/signin', { ...USER, password: 'wrong password here' })).statusCode).toBe(401);
  });

  test('its files download with the same bytes (from the S3 store now) and its site serves', async () => {
    expect(b.app.deps.objectStore.constructor.name).toBe('S3ObjectStore');
    expect(await objectsUnder(b, `projects/${project.id}/`)).toHaveLength(2);
    const res = await b.app.inject({ method: 'GET', url: seen.filePath });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(FILE)).toBe(true);
    // Sharing is carried as it was: the shared file keeps its link, the private one has none.
    const listed = (await b.post(`/project/${project.id}/object-storage/files`, {}, ownerB.token)).json().files as { object_id: string; path: string | null }[];
    expect(listed.find((f) => f.object_id === seen.privateFileId)?.path).toBeNull();
    expect(new URL(listed.find((f) => f.object_id !== seen.privateFileId)!.path!).pathname).toBe(seen.filePath);
    const page = await site(b, project, '/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(SITE_HTML);
  });

  test('its mail domain and mailboxes, the DKIM key resealed with this platform\'s secret', async () => {
    expect((await b.post(`/project/${project.id}/smtp/accounts`, { domain: 'shop.example' }, ownerB.token)).json()).toEqual(seen.mailboxes);
    const [dkim] = await b.database.query<{ dkim_private_key: string; dkim_public_key: string; verified: boolean }>(
      'SELECT dkim_private_key, dkim_public_key, verified FROM smtp_domains WHERE project_id = $1',
      [project.id],
    );
    expect(dkim.verified).toBe(true);
    expect(dkim.dkim_public_key).toBe(seen.dkimPublic);
    expect(b.app.deps.secrets.open(dkim.dkim_private_key)).toBe(seen.dkimPrivate);
    expect(() => a.app.deps.secrets.open(dkim.dkim_private_key)).toThrow();
  });

  test('importing it again is refused, naming the clash', async () => {
    const before = await countRows(b, 'end_users');
    await expect(importProject(depsOf(b), archive, ownerB.email)).rejects.toThrow(`Not imported: project ${project.id} is already on this platform`);
    expect(await countRows(b, 'end_users')).toBe(before);
  });

  test('an unknown project is refused at export', async () => {
    await expect(exportProject(depsOf(b), '00000000-0000-4000-8000-000000000000', path.join(work, 'none.tar.gz'))).rejects.toThrow(BackupError);
    expect(fs.existsSync(path.join(work, 'none.tar.gz'))).toBe(false);
  });
});
