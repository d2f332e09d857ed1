// The limits of an upload: the per-file size (MAX_UPLOAD_BYTES), the plan's storage quota summed
// over all of an account's projects, and a client that hangs up mid-upload. Each failure must
// leave neither bytes nor a row.
import http from 'node:http';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, developerWithProject, multipart, rowCount, storedFiles, upload } from './helpers';

// Set-up registers developers (scrypt) and opens a database; generous under a loaded machine.
jest.setTimeout(30_000);

const GiB = 1024 ** 3;
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ MAX_UPLOAD_BYTES: '1000' });
});
afterAll(() => t.close());

/** Pretends the project already holds `bytes` (a row without bytes; only its size matters here). */
async function occupy(projectId: string, bytes: number) {
  await t.database.query(
    `INSERT INTO storage_objects (object_id, project_id, storage_key, name, object_type, object_size, etag, share_segment)
     VALUES ($1, $2, 'projects/none', 'filler', 'application/octet-stream', $3, 'x', 'x')`,
    [crypto.randomUUID(), projectId, bytes],
  );
  await t.app.deps.lookups.barrier(); // a write from outside the platform: wait until it is heard
}

describe('the per-file limit', () => {
  it('accepts a file of exactly the limit', async () => {
    const { dev, project } = await developerWithProject(t);
    const res = await upload(t, dev.token, project.id, [{ name: 'a.bin', content: Buffer.alloc(1000) }]);
    expect(res.statusCode).toBe(200);
    expect(res.json().file.object_size).toBe(1000);
  });

  it.each([1001, 64 * 1024])('refuses %i bytes with 413 naming the limit, leaving nothing', async (size) => {
    const { dev, project } = await developerWithProject(t);
    const files = storedFiles(t);
    const res = await upload(t, dev.token, project.id, [{ name: 'a.bin', content: Buffer.alloc(size, 1) }]);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('File is larger than the upload limit of 1000 bytes');
    expect(await rowCount(t, project.id)).toBe(0);
    expect(storedFiles(t)).toEqual(files);
  });
});

describe('the plan quota', () => {
  it('counts every project of the account and refuses what would go over (413)', async () => {
    const { dev, project } = await developerWithProject(t);
    const second = await createProject(t, dev);
    await occupy(project.id, 5 * GiB - 500);

    const fits = await upload(t, dev.token, second.id, [{ name: 'fits.bin', content: Buffer.alloc(400) }]);
    expect(fits.statusCode).toBe(200);
    const files = storedFiles(t);
    const over = await upload(t, dev.token, second.id, [{ name: 'over.bin', content: Buffer.alloc(200) }]);
    expect(over.statusCode).toBe(413);
    expect(over.json().message).toMatch(/^Storage quota exceeded: the Hobby plan allows 5 GiB/);
    expect(await rowCount(t, second.id)).toBe(1);
    expect(storedFiles(t)).toEqual(files);

    const listed = (await t.post(`/project/${second.id}/object-storage/files`, {}, dev.token)).json();
    expect(listed).toMatchObject({ usage_bytes: 5 * GiB - 100, quota_bytes: 5 * GiB });
  });

  it('refuses any upload once the quota is used up, before reading the file', async () => {
    const { dev, project } = await developerWithProject(t);
    await occupy(project.id, 5 * GiB);
    const res = await upload(t, dev.token, project.id, [{ name: 'a.bin', content: 'a' }]);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/Storage quota exceeded/);
  });

  it('follows the plan: Pro allows 10 GB, Enterprise has no quota', async () => {
    const { dev, project } = await developerWithProject(t);
    await occupy(project.id, 6 * GiB);
    expect((await upload(t, dev.token, project.id, [{ name: 'a', content: 'a' }])).statusCode).toBe(413);
    await t.database.query(`UPDATE accounts SET plan = 'pro' WHERE id = $1`, [dev.id]);
    await t.app.deps.lookups.barrier(); // a write from outside the platform: wait until it is heard
    expect((await upload(t, dev.token, project.id, [{ name: 'a', content: 'a' }])).statusCode).toBe(200);
    await t.database.query(`UPDATE accounts SET plan = 'enterprise' WHERE id = $1`, [dev.id]);
    await t.app.deps.lookups.barrier();
    const listed = (await t.post(`/project/${project.id}/object-storage/files`, {}, dev.token)).json();
    expect(listed.quota_bytes).toBeUndefined();
    expect(listed.usage_bytes).toBe(6 * GiB + 1);
  });

  it('lets only one of two concurrent uploads take the last room', async () => {
    const { dev, project } = await developerWithProject(t);
    await occupy(project.id, 5 * GiB - 500);
    const files = storedFiles(t);
    const results = await Promise.all(
      [1, 2].map((i) => upload(t, dev.token, project.id, [{ name: `c${i}.bin`, content: Buffer.alloc(300) }])),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 413]);
    expect(await rowCount(t, project.id)).toBe(2); // the filler and the winner
    expect(storedFiles(t).length).toBe(files.length + 2); // the winner's bytes and sidecar
  });
});

describe('an aborted upload', () => {
  let big: TestApp;
  beforeAll(async () => {
    big = await buildTestApp({ MAX_UPLOAD_BYTES: String(64 * 1024 * 1024) });
    await big.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => big.close());

  it.each([['with a Content-Length', true], ['chunked', false]])('leaves no object and no row (%s)', async (_label, withLength) => {
    const { dev, project } = await developerWithProject(big);
    const before = storedFiles(big);
    const payload = Buffer.alloc(8 * 1024 * 1024, 7);
    const { body, contentType } = multipart([{ name: 'big.bin', content: payload }]);
    const { port } = big.app.server.address() as AddressInfo;

    const req = http.request({
      host: '127.0.0.1', port, method: 'POST', path: `/api/project/${project.id}/object-storage/upload`,
      headers: {
        authorization: `Bearer ${dev.token}`, 'content-type': contentType,
        ...(withLength ? { 'content-length': body.length } : {}),
      },
    });
    req.on('error', () => undefined); // we are the ones hanging up
    req.write(body.subarray(0, 3 * 1024 * 1024));
    // Wait until the server is writing the file, so the abort lands mid-stream.
    await until(() => storedFiles(big).some((f) => f.startsWith('tmp/')));
    req.destroy();

    // The server notices the hang-up, fails the write and removes its temp file.
    await until(() => storedFiles(big).length === before.length);
    expect(storedFiles(big)).toEqual(before);
    expect(await rowCount(big, project.id)).toBe(0);
    // And the app is fine afterwards.
    expect((await upload(big, dev.token, project.id, [{ name: 'ok.txt', content: 'ok' }])).statusCode).toBe(200);
  });
});

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
