// An archive written before the lifecycle sections (format version 1, test/fixtures/backup/) still
// imports: the project, its keys, its end user, files, site, variables, mail and database come
// back. What format 1 lost is as it was there (the files' folders and owners, the folder rules),
// except the Node site's entry, which format 1 overwrote with its archive member's name: it is
// found again in the deployment's files, so the site starts.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { buildTestApp, type TestApp } from '../helpers/app';
import { registerDeveloper, type Developer } from '../helpers/factories';
import { backupDeps, importProject, type ImportResult } from '../../server/src/modules/backup';
import { extractTar } from '../../server/src/modules/backup/tar';
import { EntryRuntime } from './entry-runtime';

jest.setTimeout(60_000);

const FIXTURE = path.join(__dirname, '../fixtures/backup/v1-project.tar.gz');
const runtime = new EntryRuntime();
let t: TestApp;
let owner: Developer;
let result: ImportResult;
let archived: { keys: { kind: string; key: string }[] };
let id: string;
let publishable: string;

beforeAll(async () => {
  t = await buildTestApp({ PLATFORM_DOMAIN: 'v1.test' }, { hostingRuntime: runtime });
  owner = await registerDeveloper(t);
  const dir = await fsp.mkdtemp(path.join(t.dataDir, 'fixture-'));
  await extractTar(fs.createReadStream(FIXTURE), dir, () => true, 2 ** 30);
  archived = JSON.parse(await fsp.readFile(path.join(dir, 'data.json'), 'utf8'));
  result = await importProject(backupDeps(t.app.deps, t.app.projects.lifecycles, path.join(t.dataDir, 'backup')), FIXTURE, owner.email);
  id = result.projectId;
  publishable = archived.keys.find((k) => k.kind === 'authentication')!.key;
});
afterAll(async () => {
  await t?.close();
  await runtime.close();
});

test('it imports, for its new owner, with its keys', async () => {
  expect(result.manifest.version).toBe(1);
  expect(result.warnings).toEqual([]);
  const keys = (await t.post(`/project/${id}/api-keys`, {}, owner.token)).json();
  expect(keys).toMatchObject({ publishable_key: publishable, secret_key: archived.keys.find((k) => k.kind === 'bucket')!.key });
});

test('its Node site starts from server.js, the entry format 1 lost', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/', headers: { host: 'shop.v1.test:3000' } });
  expect({ status: res.statusCode, body: res.body }).toEqual({ status: 200, body: 'node site v1\n' });
  expect(runtime.started).toEqual([{ projectId: id, entry: 'server.js' }]);
  const [dep] = await t.database.query<{ entry: string }>('SELECT entry FROM site_deployments WHERE project_id = $1', [id]);
  expect(dep.entry).toBe('server.js');
});

test('its end user signs in and sees their row; its files, variables and mailbox are there', async () => {
  const session = await t.app.inject({ method: 'POST', url: '/api/auth/v1/signin', headers: { 'x-hostbase-key': publishable }, payload: { email: 'reader@example.com', password: 'correct horse battery' } });
  expect(session.statusCode).toBe(200);
  const rows = await t.app.inject({ method: 'POST', url: '/api/db/v1/todos/select', headers: { 'x-hostbase-key': publishable, 'x-hostbase-user-token': session.json().access_token }, payload: {} });
  expect(rows.json().rows).toMatchObject([{ title: 'buy milk' }]);
  // Format 1 did not carry folders, owners or rules: the files are in the bucket's root, the developer's.
  const files = (await t.post(`/project/${id}/object-storage/files`, {}, owner.token)).json().files as unknown[];
  expect(files).toHaveLength(2);
  expect(JSON.stringify(files)).toContain('notes.txt');
  const stored = await t.database.query<{ object_id: string; name: string; folder: string; owner_id: string | null }>(
    'SELECT object_id, name, folder, owner_id FROM storage_objects WHERE project_id = $1 ORDER BY name',
    [id],
  );
  expect(stored.map(({ object_id: _, ...f }) => f)).toEqual([{ name: 'notes.txt', folder: '', owner_id: null }, { name: 'terms.txt', folder: '', owner_id: null }]);
  const terms = await t.app.inject({ method: 'GET', url: `/api/storage/v1/objects/${stored[1].object_id}`, headers: { 'x-hostbase-key': archived.keys.find((k) => k.kind === 'bucket')!.key } });
  expect({ status: terms.statusCode, body: terms.body }).toEqual({ status: 200, body: 'terms of service' });
  const env = (await t.post(`/project/${id}/hosting/env`, undefined, owner.token)).json().variables;
  expect(env.map((v: { name: string; secret: boolean }) => [v.name, v.secret])).toEqual([['API_BASE', false], ['STRIPE_KEY', true]]);
  expect((await t.post(`/project/${id}/smtp/accounts`, { domain: 'shop.example' }, owner.token)).body).toContain('alice@shop.example');
});
