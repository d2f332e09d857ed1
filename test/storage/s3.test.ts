// The same storage journey with S3_ENDPOINT set: the app builds its S3 ObjectStore from the
// config and talks to a real s3rver started here (MinIO is the production target; s3rver is the
// S3 server that installs in tests).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { S3ObjectStore } from '../../server/src/platform/object-store/object-store.s3';
import { buildTestApp, type TestApp } from '../helpers/app';
import { bucketUpload, developerWithProject, rowCount, shareFile, upload } from './helpers';

// Set-up registers developers (scrypt) and opens a database; generous under a loaded machine.
jest.setTimeout(30_000);

// s3rver is CommonJS without types; this is the little of it used here.
const S3rver = require('s3rver') as new (opts: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };

let server: InstanceType<typeof S3rver>;
let dir: string;
let t: TestApp;
let bucket: S3ObjectStore;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-s3-app-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, directory: path.join(dir, 's3'), silent: true });
  const { port } = await server.run();
  const s3 = { endpoint: `http://127.0.0.1:${port}`, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: 'hostbase-app' };
  t = await buildTestApp({ S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey, S3_BUCKET: s3.bucket, MAX_UPLOAD_BYTES: String(1024 * 1024) });
  // A second client on the same bucket, to look at what the app left there.
  bucket = new S3ObjectStore({ ...s3, spoolDir: path.join(dir, 'spool') });
});
afterAll(async () => {
  await t?.close();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function keys(prefix = 'projects/'): Promise<string[]> {
  const out: string[] = [];
  for await (const o of bucket.list(prefix)) out.push(o.key);
  return out.sort();
}

test('upload → list → download → delete through the API, stored in the S3 bucket', async () => {
  const { dev, project } = await developerWithProject(t);
  const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256));
  const up = await upload(t, dev.token, project.id, [{ field: 'project_id', value: project.id }, { name: 'photo.jpg', type: 'image/jpeg', content: bytes }]);
  expect(up.statusCode).toBe(200);
  const file = up.json().file;
  expect(file).toMatchObject({ object_type: 'image/jpeg', object_size: bytes.length });
  expect(await keys(`projects/${project.id}/`)).toEqual([`projects/${project.id}/objects/${file.object_id}`]);

  const listed = (await t.post(`/project/${project.id}/object-storage/files`, {}, dev.token)).json();
  expect(listed).toMatchObject({ total: 1, usage_bytes: bytes.length });

  const link = await shareFile(t, dev.token, project.id, file.object_id);
  const dl = await t.app.inject({ method: 'GET', url: link });
  expect(dl.statusCode).toBe(200);
  expect(dl.rawPayload).toEqual(bytes);
  expect(dl.headers).toMatchObject({ 'content-type': 'image/jpeg', 'content-length': String(bytes.length), etag: expect.stringMatching(/^"[0-9a-f]{32}"$/) });
  const range = await t.app.inject({ method: 'GET', url: link, headers: { range: 'bytes=100-199' } });
  expect(range.statusCode).toBe(206);
  expect(range.rawPayload).toEqual(bytes.subarray(100, 200));
  expect((await t.app.inject({ method: 'GET', url: link, headers: { 'if-none-match': dl.headers.etag as string } })).statusCode).toBe(304);

  const del = await t.post(`/project/${project.id}/object-storage/delete`, { file_ids: [file.object_id] }, dev.token);
  expect(del.json()).toEqual({ message: 'deleted', deleted: 1 });
  expect(await keys(`projects/${project.id}/`)).toEqual([]);
  expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(404);
});

test('bucket-key calls and the upload limit work on S3 too; a refused upload leaves nothing in the bucket', async () => {
  const { project } = await developerWithProject(t);
  const up = await bucketUpload(t, project.bucketKey, [{ name: 'a.txt', content: 'from the app' }]);
  expect(up.statusCode).toBe(200);
  const id = up.json().file.object_id;
  const dl = await t.app.inject({ method: 'GET', url: `/api/storage/v1/objects/${id}`, headers: { 'x-api-key': project.bucketKey } });
  expect(dl.body).toBe('from the app');

  const before = await keys();
  const big = await bucketUpload(t, project.bucketKey, [{ name: 'big.bin', content: Buffer.alloc(1024 * 1024 + 1) }]);
  expect(big.statusCode).toBe(413);
  expect(await keys()).toEqual(before);
  expect(await rowCount(t, project.id)).toBe(1);
});

test('deleting a project removes its objects from the bucket', async () => {
  const { dev, project } = await developerWithProject(t);
  for (const name of ['1.txt', '2.txt']) await upload(t, dev.token, project.id, [{ name, content: name }]);
  expect(await keys(`projects/${project.id}/`)).toHaveLength(2);
  const res = await t.post(`/project/${project.id}/delete`, { confirm: project.subdomain }, dev.token);
  expect(res.statusCode).toBe(200);
  expect(await keys(`projects/${project.id}/`)).toEqual([]);
  expect(await rowCount(t, project.id)).toBe(0);
});
