// App-side storage with the project's bucket API key: the key's own project only, and a rotated
// key stops working at once.
import { buildTestApp, type TestApp } from '../helpers/app';
import { bucketUpload, developerWithProject, rowCount, upload, type Project } from './helpers';
import type { Developer } from '../helpers/app';

// Set-up registers developers (scrypt) and opens a database; generous under a loaded machine.
jest.setTimeout(30_000);

let t: TestApp;
let a: { dev: Developer; project: Project };
let b: { dev: Developer; project: Project };
beforeAll(async () => {
  t = await buildTestApp({ MAX_UPLOAD_BYTES: '4096' });
  a = await developerWithProject(t);
  b = await developerWithProject(t);
});
afterAll(() => t.close());

const call = (method: 'GET' | 'DELETE', url: string, key?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url: '/api/storage/v1/objects' + url, headers: { ...(key ? { 'x-api-key': key } : {}), ...headers } });

describe('bucket-key calls', () => {
  it('upload → list → download → delete, in the key\'s project', async () => {
    const up = await bucketUpload(t, a.project.bucketKey, [{ name: 'app.json', type: 'application/json', content: '{"a":1}' }]);
    expect(up.statusCode).toBe(200);
    const file = up.json().file;
    expect(up.json().message).toBe('saved');
    expect(file).toMatchObject({ object_type: 'application/json', object_size: 7, metadata: '{"name":"app.json"}' });
    // The secret key is the developer: it sees that the new file is private, and may share it.
    expect(file.path).toBeNull();
    const shared = await t.app.inject({ method: 'PUT', url: `/api/storage/v1/objects/${file.object_id}/share`, headers: { 'x-api-key': a.project.bucketKey } });
    expect(shared.json()).toEqual({ message: 'shared', file: { ...file, path: expect.stringContaining('/s3/object-storage/') } });
    const link = new URL(shared.json().file.path).pathname;
    expect((await t.app.inject({ method: 'GET', url: link })).body).toBe('{"a":1}');

    // The console sees the same file in that project.
    const consoleList = (await t.post(`/project/${a.project.id}/object-storage/files`, {}, a.dev.token)).json();
    expect(consoleList.files.map((f: { object_id: string }) => f.object_id)).toContain(file.object_id);

    const listed = await call('GET', '', a.project.bucketKey);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ total: 1, page: 1, page_size: 100, next_page: null });
    expect(listed.json().files[0].object_id).toBe(file.object_id);
    expect((await call('GET', '?page=2', a.project.bucketKey)).json()).toMatchObject({ files: [], page: 2 });

    const dl = await call('GET', `/${file.object_id}`, a.project.bucketKey);
    expect(dl.statusCode).toBe(200);
    expect(dl.body).toBe('{"a":1}');
    expect(dl.headers['content-security-policy']).toMatch(/^sandbox/);
    const part = await call('GET', `/${file.object_id}`, a.project.bucketKey, { range: 'bytes=1-3' });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('"a"');
    const cached = await call('GET', `/${file.object_id}`, a.project.bucketKey, { 'if-none-match': dl.headers.etag as string });
    expect(cached.statusCode).toBe(304);

    const del = await call('DELETE', `/${file.object_id}`, a.project.bucketKey);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: 'deleted' });
    expect((await call('GET', `/${file.object_id}`, a.project.bucketKey)).statusCode).toBe(404);
    expect((await call('DELETE', `/${file.object_id}`, a.project.bucketKey)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(404);
  });

  it('refuses a key of project A for project B\'s files (404) and leaves them whole', async () => {
    const theirs = (await upload(t, b.dev.token, b.project.id, [{ name: 'b.txt', content: 'bee' }])).json().file;
    expect((await call('GET', `/${theirs.object_id}`, a.project.bucketKey)).statusCode).toBe(404);
    expect((await call('DELETE', `/${theirs.object_id}`, a.project.bucketKey)).statusCode).toBe(404);
    const listed = (await call('GET', '', a.project.bucketKey)).json();
    expect(listed.files.map((f: { object_id: string }) => f.object_id)).not.toContain(theirs.object_id);
    expect((await call('GET', `/${theirs.object_id}`, b.project.bucketKey)).body).toBe('bee');
  });

  it('refuses missing, unknown and wrong-kind keys with 401', async () => {
    expect((await call('GET', '')).statusCode).toBe(401);
    expect((await call('GET', '', 'hb_bucket_nope')).json().message).toBe('Invalid API key');
    const auth = (await t.post(`/project/${a.project.id}/authentication-details`, undefined, a.dev.token)).json().api_key;
    expect((await call('GET', '', auth)).statusCode).toBe(401);
    // A developer token is not a bucket key.
    expect((await call('GET', '', undefined, { authorization: `Bearer ${a.dev.token}` })).statusCode).toBe(401);
    const rows = await rowCount(t);
    expect((await bucketUpload(t, 'hb_bucket_nope', [{ name: 'x', content: 'x' }])).statusCode).toBe(401);
    expect(await rowCount(t)).toBe(rows);
  });

  it('applies the upload limit and input checks to apps too', async () => {
    const big = await bucketUpload(t, a.project.bucketKey, [{ name: 'big', content: Buffer.alloc(5000) }]);
    expect(big.statusCode).toBe(413);
    const none = await bucketUpload(t, a.project.bucketKey, [{ field: 'note', value: 'x' }]);
    expect(none.statusCode).toBe(400);
    expect((await call('GET', '?page=0', a.project.bucketKey)).statusCode).toBe(400);
  });

  it('stops accepting a rotated key at once; the new key works', async () => {
    const p = await developerWithProject(t);
    const old = p.project.bucketKey;
    expect((await call('GET', '', old)).statusCode).toBe(200);
    const rotated = await t.post(`/project/${p.project.id}/rotate-key`, { key: 'bucket' }, p.dev.token);
    const fresh = rotated.json().api_key;
    expect(fresh).not.toBe(old);
    expect((await call('GET', '', old)).statusCode).toBe(401);
    expect((await bucketUpload(t, old, [{ name: 'x', content: 'x' }])).statusCode).toBe(401);
    expect((await call('GET', '', fresh)).statusCode).toBe(200);
    expect((await bucketUpload(t, fresh, [{ name: 'x', content: 'x' }])).statusCode).toBe(200);
  });
});
