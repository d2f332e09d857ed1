// Large JSON answers compressed when the client accepts it (fewer bytes on slow links), and what must stay as it
// is: small answers, a Server-Sent Events stream (an event arrives while the stream is open, not
// held in a compressor's buffer), a stored file that is JSON (its bytes, its ETag and its ranges
// are the file's).
import zlib from 'node:zlib';
import { COMPRESS_THRESHOLD_BYTES } from '../../server/src/http/compress';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, registerDeveloper, shareFile, upload, type Developer, type Project } from '../helpers/factories';
import { asOwner, baseUrl, makeTable, subscribe, type SseStream } from '../database/changes-helpers';

jest.setTimeout(30_000);

let t: TestApp;
let dev: Developer;
let project: Project;

beforeAll(async () => {
  t = await buildTestApp();
  dev = await registerDeveloper(t, { ip: '10.16.0.1' });
  project = await createProject(t, dev);
});
afterAll(() => t.close());

const decode = (coding: string | undefined, body: Buffer) =>
  (coding === 'br' ? zlib.brotliDecompressSync(body) : coding === 'gzip' ? zlib.gunzipSync(body) : body).toString('utf8');

const listFiles = (token: string, encoding?: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/project/${project.id}/object-storage/files`,
    headers: { authorization: `Bearer ${token}`, ...(encoding === undefined ? {} : { 'accept-encoding': encoding }) },
  });

describe('a large JSON answer', () => {
  beforeAll(async () => {
    for (let i = 0; i < 12; i++) {
      const res = await upload(t, dev.token, project.id, [{ name: `quarterly-report-${i}-with-a-long-name.txt`, content: `report ${i}` }]);
      expect(res.statusCode).toBe(200);
    }
  });

  test('is compressed with br, then gzip, by what the client accepts, and decompresses to the same JSON', async () => {
    const plain = await listFiles(dev.token);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    const files = plain.json().files;
    expect(files).toHaveLength(12);

    for (const [accept, coding] of [['gzip, deflate, br', 'br'], ['gzip', 'gzip'], ['br;q=0.2, gzip;q=0.8', 'gzip'], ['identity', undefined]] as const) {
      const res = await listFiles(dev.token, accept);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      const body = JSON.parse(decode(coding, res.rawPayload));
      expect(body.files).toEqual(files);
      if (coding) expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    }
  });

  test("another account's token gets no files, compressed or not", async () => {
    const other = await registerDeveloper(t, { ip: '10.16.0.2' });
    const res = await listFiles(other.token, 'br, gzip');
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    const body = decode(res.headers['content-encoding'] as string | undefined, res.rawPayload);
    expect(body).not.toContain('quarterly-report');
    expect(JSON.parse(body).message).toBeDefined();
  });

  test('the contract (/api/openapi.json) is compressed too', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(decode('br', res.rawPayload)).toBe(plain.body);
    expect(res.rawPayload.length * 4).toBeLessThan(plain.rawPayload.length);
  });

  test('a malformed Accept-Encoding is never a 500: the answer goes out as identity or a coding it names', async () => {
    for (const accept of [';;;', 'q=1', 'br;q=-1, gzip;q=', ',,,', 'br;q=0.5;q=1', '\u00e9t\u00e9', 'gzip;q=0.5x'.repeat(200)]) {
      const res = await listFiles(dev.token, accept);
      expect(res.statusCode).toBe(200);
      expect(JSON.parse(decode(res.headers['content-encoding'] as string | undefined, res.rawPayload)).files).toHaveLength(12);
    }
  });
});

test('a small JSON answer goes out as it is', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br, gzip' } });
  expect(res.statusCode).toBe(200);
  expect(res.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
  expect(res.headers['content-encoding']).toBeUndefined();
  expect(res.json()).toBeDefined();
});

test('a stored JSON file keeps its bytes, its ETag and its ranges', async () => {
  const json = Buffer.from(JSON.stringify({ rows: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `row ${i}` })) }));
  expect(json.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
  const up = await upload(t, dev.token, project.id, [{ name: 'rows.json', type: 'application/json', content: json }]);
  expect(up.statusCode).toBe(200);
  const url = await shareFile(t, dev.token, project.id, up.json().file.object_id);

  const whole = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
  expect(whole.statusCode).toBe(200);
  expect(whole.headers['content-encoding']).toBeUndefined();
  expect(whole.rawPayload).toEqual(json);
  expect(whole.headers.etag).toBeDefined();

  const part = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip', range: 'bytes=10-99' } });
  expect(part.statusCode).toBe(206);
  expect(part.headers['content-encoding']).toBeUndefined();
  expect(part.headers['content-range']).toBe(`bytes 10-99/${json.length}`);
  expect(part.rawPayload).toEqual(json.subarray(10, 100));
});

describe('a Server-Sent Events stream', () => {
  let stream: SseStream | undefined;
  afterEach(() => stream?.close());

  test('is never compressed nor buffered: each change arrives while the stream is open', async () => {
    const ctx = t.app.projectDatabase;
    await makeTable(ctx, project, 'notes', 'id integer PRIMARY KEY, body text', 'read');
    const base = await baseUrl(t.app);
    stream = await subscribe(base, 'notes', { 'x-api-key': project.authKey, 'accept-encoding': 'br, gzip' });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.events[0]).toEqual({ event: 'ready', data: { table: 'notes' } });
    // One small event at a time: a compressor would hold each one back in its buffer.
    for (let i = 1; i <= 3; i++) {
      await asOwner(ctx, project, (tx) => tx.query(`INSERT INTO notes VALUES (${i}, 'n${i}')`));
      const got = await stream.waitFor(i);
      expect(got[i - 1]).toEqual({ event: 'INSERT', data: { type: 'INSERT', table: 'notes', record: { id: i, body: `n${i}` } } });
    }
  });
});
