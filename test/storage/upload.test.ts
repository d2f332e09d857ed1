// Console storage calls through the real app: upload, list (pages, usage), delete, and the
// checks around them (bad input, wrong project, another account).
import { onPlan } from '../helpers/factories';
import { registerDeveloper, buildTestApp, type Developer, type TestApp } from '../helpers/app';
import { createProject, developerWithProject, multipart, rowCount, shareFile, storedFiles, upload, type Project } from './helpers';

// Set-up registers developers (scrypt) and opens a database; generous under a loaded machine.
jest.setTimeout(30_000);

let t: TestApp;
let dev: Developer;
let project: Project;
beforeAll(async () => {
  t = await buildTestApp();
  ({ dev, project } = await developerWithProject(t));
  await onPlan(t, dev, 'pro'); // more projects than Hobby's 3 (Pro: 20, 10 GiB of storage): this file is not about plan limits
});
afterAll(() => t.close());

const list = (projectId: string, token: string, body?: unknown) => t.post(`/project/${projectId}/object-storage/files`, body, token);

describe('uploadObject', () => {
  it('stores the file and answers "saved" with its record', async () => {
    const res = await upload(t, dev.token, project.id, [
      { field: 'project_id', value: project.id },
      { name: 'cat.png', type: 'image/png', content: 'not really a png' },
    ]);
    expect(res.statusCode).toBe(200);
    const { message, file } = res.json();
    expect(message).toBe('saved');
    expect(file).toEqual({
      object_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      object_type: 'image/png',
      object_size: 16,
      metadata: JSON.stringify({ name: 'cat.png' }),
      // Private: not shared until the developer says so.
      path: null,
      // The bucket's root, uploaded from the console: owned by no end user.
      folder: '',
      owner_id: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    // Shared, its path has the SPEC's shape: the share segment is the 6th slash-separated part.
    const shared = await t.post(`/project/${project.id}/object-storage/share`, { object_id: file.object_id }, dev.token);
    expect(shared.json()).toEqual({ message: 'shared', file: { ...file, path: expect.stringMatching(/^http:\/\/localhost:3000\/s3\/object-storage\/[\w-]{20,}\//) } });
    const parts = shared.json().file.path.split('/');
    expect(parts[6]).toBe(file.object_id);
    const dl = await t.app.inject({ method: 'GET', url: `/s3/object-storage/${parts[5]}/${file.object_id}` });
    expect(dl.statusCode).toBe(200);
    expect(dl.body).toBe('not really a png');
  });

  it('accepts project_id after the file, and no project_id at all', async () => {
    const after = await upload(t, dev.token, project.id, [{ name: 'a.txt', content: 'a' }, { field: 'project_id', value: project.id }]);
    expect(after.statusCode).toBe(200);
    const none = await upload(t, dev.token, project.id, [{ name: 'b.txt', content: 'b' }]);
    expect(none.statusCode).toBe(200);
    expect(none.json().file.object_type).toBe('text/plain'); // by extension: no part type given
  });

  it('falls back to the extension, then to application/octet-stream', async () => {
    const svg = await upload(t, dev.token, project.id, [{ name: 'logo.svg', type: 'application/octet-stream', content: '<svg/>' }]);
    expect(svg.json().file.object_type).toBe('image/svg+xml');
    const odd = await upload(t, dev.token, project.id, [{ name: 'data.weird', type: 'not a type', content: 'x' }]);
    expect(odd.json().file.object_type).toBe('application/octet-stream');
  });

  it('keeps unicode names and strips folders from them', async () => {
    const res = await upload(t, dev.token, project.id, [{ name: 'folder/ünï cødé.txt', content: 'u' }]);
    expect(JSON.parse(res.json().file.metadata)).toEqual({ name: 'ünï cødé.txt' });
  });

  it('stores an empty file', async () => {
    const res = await upload(t, dev.token, project.id, [{ name: 'empty.txt', content: '' }]);
    expect(res.statusCode).toBe(200);
    expect(res.json().file.object_size).toBe(0);
  });

  it.each([
    ['no file part', [{ field: 'note', value: 'x' }], /file/],
    ['a file under another field name', [{ field: 'upload', name: 'a.txt', content: 'a' }], /body\/file/],
    ['a project_id of another project', [{ field: 'project_id', value: '00000000-0000-0000-0000-000000000000' }, { name: 'a.txt', content: 'a' }], /project_id/],
    ['a project_id after the file naming another project', [{ name: 'a.txt', content: 'a' }, { field: 'project_id', value: 'nope' }], /project_id/],
    ['two files', [{ name: 'a.txt', content: 'a' }, { name: 'b.txt', content: 'b' }], /one file/],
  ] as const)('refuses %s with 400 and writes nothing', async (_label, parts, message) => {
    const rows = await rowCount(t);
    const files = storedFiles(t);
    const res = await upload(t, dev.token, project.id, parts as never);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
    expect(await rowCount(t)).toBe(rows);
    expect(storedFiles(t)).toEqual(files);
  });

  it('refuses a JSON body and a malformed multipart body with 400', async () => {
    const json = await t.post(`/project/${project.id}/object-storage/upload`, { file: 'x' }, dev.token);
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toMatch(/multipart/);
    const { body, contentType } = multipart([{ name: 'a.txt', content: 'abc' }]);
    const cut = await t.app.inject({
      method: 'POST', url: `/api/project/${project.id}/object-storage/upload`,
      headers: { authorization: `Bearer ${dev.token}`, 'content-type': contentType }, payload: body.subarray(0, body.length - 20),
    });
    expect(cut.statusCode).toBe(400);
    expect(typeof cut.json().message).toBe('string');
  });

  it('needs a token, and hides other accounts\' projects (404) without storing anything', async () => {
    const other = await registerDeveloper(t);
    const rows = await rowCount(t);
    const anon = await upload(t, '', project.id, [{ name: 'a.txt', content: 'a' }]);
    expect(anon.statusCode).toBe(401);
    const foreign = await upload(t, other.token, project.id, [{ name: 'a.txt', content: 'a' }]);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Project not found');
    const missing = await upload(t, dev.token, '00000000-0000-0000-0000-000000000000', [{ name: 'a.txt', content: 'a' }]);
    expect(missing.json()).toEqual(foreign.json());
    expect(await rowCount(t)).toBe(rows);
  });
});

describe('listObjects', () => {
  it('pages by 100 with the total, next_page and usage', async () => {
    const p = await createProject(t, dev);
    for (let i = 0; i < 101; i++) {
      const res = await upload(t, dev.token, p.id, [{ name: `f${i}.txt`, content: 'x'.repeat(i) }]);
      expect(res.statusCode).toBe(200);
    }
    const first = await list(p.id, dev.token);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ total: 101, page: 1, page_size: 100, next_page: 2, quota_bytes: 10 * 1024 ** 3 });
    expect(body.files).toHaveLength(100);
    expect(JSON.parse(body.files[0].metadata).name).toBe('f100.txt'); // newest first
    expect(body.usage_bytes).toBeGreaterThanOrEqual((100 * 101) / 2);

    const second = (await list(p.id, dev.token, { page: 2 })).json();
    expect(second).toMatchObject({ total: 101, page: 2, next_page: null });
    expect(second.files).toHaveLength(1);
    expect(JSON.parse(second.files[0].metadata).name).toBe('f0.txt');
    const ids = new Set([...body.files, ...second.files].map((f: { object_id: string }) => f.object_id));
    expect(ids.size).toBe(101);

    expect((await list(p.id, dev.token, { page: 3 })).json()).toMatchObject({ files: [], next_page: null });
    await t.post(`/project/${p.id}/delete`, { confirm: p.subdomain }, dev.token);
  });

  it('lists only the project\'s own files', async () => {
    const p = await createProject(t, dev);
    await upload(t, dev.token, p.id, [{ name: 'mine.txt', content: 'm' }]);
    const res = (await list(p.id, dev.token)).json();
    expect(res.files.map((f: { metadata: string }) => JSON.parse(f.metadata).name)).toEqual(['mine.txt']);
    expect(res.total).toBe(1);
  });

  it('refuses a bad page (400) and another account (404)', async () => {
    expect((await list(project.id, dev.token, { page: 0 })).statusCode).toBe(400);
    expect((await list(project.id, dev.token, { page: 'two' })).statusCode).toBe(400);
    const other = await registerDeveloper(t);
    const res = await list(project.id, other.token);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('object_id');
  });
});

describe('deleteObjects', () => {
  it('deletes the project\'s files, bytes and rows, and the link then answers 404', async () => {
    const p = await createProject(t, dev);
    const a = (await upload(t, dev.token, p.id, [{ name: 'a.txt', content: 'aaa' }])).json().file;
    const b = (await upload(t, dev.token, p.id, [{ name: 'b.txt', content: 'bbb' }])).json().file;
    const [aLink, bLink] = [await shareFile(t, dev.token, p.id, a.object_id), await shareFile(t, dev.token, p.id, b.object_id)];
    const before = storedFiles(t).length;
    const res = await t.post(`/project/${p.id}/object-storage/delete`, { file_ids: [a.object_id, 'not-a-uuid'] }, dev.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'deleted', deleted: 1 });
    expect(storedFiles(t).length).toBe(before - 2); // the bytes and their sidecar
    expect(await rowCount(t, p.id)).toBe(1);
    const gone = await t.app.inject({ method: 'GET', url: aLink });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('File not found');
    expect((await t.app.inject({ method: 'GET', url: bLink })).statusCode).toBe(200);
  });

  it('ignores ids of other projects and leaves those files whole', async () => {
    const mine = await createProject(t, dev);
    const other = await developerWithProject(t);
    const theirs = (await upload(t, other.dev.token, other.project.id, [{ name: 't.txt', content: 'theirs' }])).json().file;
    const theirLink = await shareFile(t, other.dev.token, other.project.id, theirs.object_id);
    const res = await t.post(`/project/${mine.id}/object-storage/delete`, { file_ids: [theirs.object_id] }, dev.token);
    expect(res.json()).toEqual({ message: 'deleted', deleted: 0 });
    expect((await t.app.inject({ method: 'GET', url: theirLink })).body).toBe('theirs');
    // And the owner can't reach them through another account's project path either.
    const foreign = await t.post(`/project/${other.project.id}/object-storage/delete`, { file_ids: [theirs.object_id] }, dev.token);
    expect(foreign.statusCode).toBe(404);
    expect(await rowCount(t, other.project.id)).toBe(1);
  });

  it('refuses a missing or empty file_ids with 400', async () => {
    expect((await t.post(`/project/${project.id}/object-storage/delete`, {}, dev.token)).statusCode).toBe(400);
    const empty = await t.post(`/project/${project.id}/object-storage/delete`, { file_ids: [] }, dev.token);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/file_ids/);
  });
});
