// One suite, two backends: the fs adapter in a temp folder and the S3 adapter against a real
// s3rver started here. No mocks: "nothing left behind" is checked on the actual disk folders.
import { createHash } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import {
  InvalidObjectKeyError, ObjectNotFoundError, ObjectSizeMismatchError, ObjectTooLargeError,
  RangeNotSatisfiableError,
  type ObjectStore,
} from './object-store';
import { FsObjectStore } from './object-store.fs';
import { S3ObjectStore } from './object-store.s3';

// s3rver is CommonJS and ships no types; this is the little of it the suite uses.
interface S3rverServer {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
const S3rver = require('s3rver') as new (opts: Record<string, unknown>) => S3rverServer;

interface Backend {
  store: ObjectStore;
  /** Every file on disk this backend may write to, to prove a failed put leaves nothing. */
  diskFolders: string[];
  close(): Promise<void>;
}

async function fsBackend(): Promise<Backend> {
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'hostbase-fs-store-'));
  const store = new FsObjectStore({ root });
  await store.init();
  return { store, diskFolders: [root], close: () => fsp.rm(root, { recursive: true, force: true }) };
}

async function s3Backend(): Promise<Backend> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'hostbase-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory: path.join(dir, 'server'), silent: true });
  const { port } = await server.run();
  const spoolDir = path.join(dir, 'spool');
  const store = new S3ObjectStore({
    endpoint: `http://127.0.0.1:${port}`, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: 'hostbase-test', spoolDir,
  });
  const close = async () => {
    await server.close();
    await fsp.rm(dir, { recursive: true, force: true });
  };
  try {
    await store.ensureBucket(); // creates it: s3rver starts with no buckets
    await store.ensureBucket(); // and is a no-op the second time
  } catch (err) {
    await close();
    throw err;
  }
  return { store, diskFolders: [dir], close };
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort();
}

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const md5 = (buf: Buffer) => createHash('md5').update(buf).digest('hex');

/** Deterministic bytes, produced lazily in 64 KiB chunks so the test itself holds little. */
function generated(total: number, seed = 1): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const n = Math.min(65536, total - sent);
      const chunk = Buffer.alloc(n);
      for (let i = 0; i < n; i++) chunk[i] = (sent + i) * seed % 251;
      sent += n;
      this.push(chunk);
    },
  });
}

/** Sends `before` bytes, then fails like a client that hung up mid-upload. */
function failingAfter(before: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= before) return void this.destroy(new Error('client went away'));
      sent += 65536;
      this.push(Buffer.alloc(65536, 7));
    },
  });
}

const MiB = 1024 * 1024;

describe.each([
  ['fs', fsBackend],
  ['s3 (s3rver)', s3Backend],
])('ObjectStore: %s', (_name, makeBackend) => {
  let backend: Backend;
  let store: ObjectStore;
  let n = 0;
  /** A key prefix of its own for every test, so cases never see each other's objects. */
  let base: string;

  beforeAll(async () => {
    backend = await makeBackend();
    store = backend.store;
  });
  afterAll(() => backend?.close());
  beforeEach(() => {
    base = `projects/p${++n}/`;
  });

  const diskSnapshot = async () => (await Promise.all(backend.diskFolders.map(filesUnder))).flat();

  // Both upload paths: a declared size (streamed as is) and an unknown one (as from a multipart form).
  describe.each([['with size', true], ['without size', false]])('put %s', (_label, declare) => {
    const sized = (size: number) => (declare ? { size } : {});

    it('round-trips bytes, size, content type and a stable etag', async () => {
      const bytes = Buffer.from('hello, hostbase\n');
      const put = await store.put(`${base}a.txt`, Readable.from([bytes]), { contentType: 'text/plain', ...sized(bytes.length) });
      expect(put).toEqual({ size: bytes.length, etag: expect.stringMatching(/^[0-9a-f]{32,64}$/) });

      const got = await store.get(`${base}a.txt`);
      expect(await readAll(got.body)).toEqual(bytes);
      expect(got).toMatchObject({ size: bytes.length, contentType: 'text/plain', etag: put.etag, range: undefined });
      // Not toBeInstanceOf(Date): node's fs builds Dates outside jest's sandbox realm.
      expect(Number.isFinite(got.lastModified.getTime())).toBe(true);

      // Stable while the bytes stay; other bytes, another etag. (Identical bytes put again may or
      // may not keep it: S3's md5 does, the fs store's random version id does not.)
      expect((await store.stat(`${base}a.txt`)).etag).toBe(put.etag);
      const again = await store.put(`${base}b.txt`, Readable.from([bytes]), sized(bytes.length));
      expect(again.etag).toMatch(/^[0-9a-f]{32,64}$/);
      const other = await store.put(`${base}c.txt`, Readable.from([Buffer.from('hello, hostbasf\n')]), sized(bytes.length));
      expect(other.etag).not.toBe(put.etag);
      const replaced = await store.put(`${base}a.txt`, Readable.from([Buffer.from('hello, hostbasf\n')]), sized(bytes.length));
      expect(replaced.etag).not.toBe(put.etag);
      expect((await store.stat(`${base}a.txt`)).etag).toBe(replaced.etag);
      expect((await store.stat(`${base}b.txt`)).contentType).toBe('application/octet-stream');
    });

    it('stores an empty object', async () => {
      const put = await store.put(`${base}empty`, Readable.from([]), sized(0));
      expect(await store.stat(`${base}empty`)).toMatchObject({ size: 0, etag: put.etag });
      expect((await readAll((await store.get(`${base}empty`)).body)).length).toBe(0);
    });

    it('streams a 5 MB object through intact', async () => {
      const size = 5 * 1000 * 1000;
      const expected = md5(await readAll(generated(size, 3)));
      const put = await store.put(`${base}big.bin`, generated(size, 3), sized(size));
      expect(put.size).toBe(size);
      expect((await store.stat(`${base}big.bin`)).etag).toBe(put.etag);
      const got = await store.get(`${base}big.bin`);
      const hash = createHash('md5');
      for await (const chunk of got.body) hash.update(chunk as Buffer);
      expect(hash.digest('hex')).toBe(expected);
    });

    it('refuses a body over maxBytes, destroys the source and leaves nothing behind', async () => {
      const before = await diskSnapshot();
      const source = generated(2 * MiB);
      await expect(store.put(`${base}too-big`, source, { maxBytes: MiB, ...sized(2 * MiB) })).rejects.toBeInstanceOf(ObjectTooLargeError);
      expect(source.destroyed).toBe(true);
      expect(await store.exists(`${base}too-big`)).toBe(false);
      expect(await diskSnapshot()).toEqual(before);
    });

    it('accepts a body of exactly maxBytes', async () => {
      await expect(store.put(`${base}exact`, generated(MiB), { maxBytes: MiB, ...sized(MiB) })).resolves.toMatchObject({ size: MiB });
    });

    it('rejects when the source fails midway, leaving nothing behind', async () => {
      const before = await diskSnapshot();
      await expect(store.put(`${base}broken`, failingAfter(MiB), sized(4 * MiB))).rejects.toThrow('client went away');
      expect(await store.exists(`${base}broken`)).toBe(false);
      expect(await collect(store.list(base))).toEqual([]);
      expect(await diskSnapshot()).toEqual(before);
    });

    it('keeps the previous object when an overwrite fails', async () => {
      const v1 = Buffer.from('version one');
      await store.put(`${base}doc`, Readable.from([v1]), sized(v1.length));
      await expect(store.put(`${base}doc`, failingAfter(MiB), sized(4 * MiB))).rejects.toThrow('client went away');
      expect(await readAll((await store.get(`${base}doc`)).body)).toEqual(v1);
    });
  });

  it('refuses a body longer or shorter than its declared size, leaving nothing behind', async () => {
    const before = await diskSnapshot();
    await expect(store.put(`${base}long`, generated(1000), { size: 999 })).rejects.toBeInstanceOf(ObjectSizeMismatchError);
    await expect(store.put(`${base}short`, generated(1000), { size: 1001 })).rejects.toBeInstanceOf(ObjectSizeMismatchError);
    expect(await collect(store.list(base))).toEqual([]);
    expect(await diskSnapshot()).toEqual(before);
  });

  it('reads exact byte ranges, clamping the end like HTTP', async () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
    await store.put(`${base}r`, Readable.from([bytes]), { size: bytes.length });

    const mid = await store.get(`${base}r`, { start: 10, end: 19 });
    expect(await readAll(mid.body)).toEqual(bytes.subarray(10, 20));
    expect(mid).toMatchObject({ size: 1000, range: { start: 10, end: 19 } });

    const tail = await store.get(`${base}r`, { start: 990, end: 5000 });
    expect(await readAll(tail.body)).toEqual(bytes.subarray(990));
    expect(tail.range).toEqual({ start: 990, end: 999 });

    const one = await store.get(`${base}r`, { start: 0, end: 0 });
    expect(await readAll(one.body)).toEqual(bytes.subarray(0, 1));

    await expect(store.get(`${base}r`, { start: 1000, end: 1001 })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
    await expect(store.get(`${base}r`, { start: 5, end: 4 })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
  });

  it('stats an object and says whether it exists', async () => {
    const put = await store.put(`${base}s`, Readable.from([Buffer.from('abc')]), { contentType: 'image/png' });
    const st = await store.stat(`${base}s`);
    expect(st).toMatchObject({ size: 3, etag: put.etag, contentType: 'image/png' });
    expect(Math.abs(st.lastModified.getTime() - Date.now())).toBeLessThan(60_000);
    expect(await store.exists(`${base}s`)).toBe(true);
    expect(await store.exists(`${base}nope`)).toBe(false);
  });

  it('throws ObjectNotFoundError for a missing object', async () => {
    await expect(store.get(`${base}missing`)).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(store.get(`${base}missing`, { start: 0, end: 1 })).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(store.stat(`${base}missing`)).rejects.toBeInstanceOf(ObjectNotFoundError);
    // A key that is only the "folder" of another object is not an object on either backend.
    await store.put(`${base}folder/inside`, Readable.from([Buffer.from('x')]));
    await expect(store.get(`${base}folder`)).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(await store.exists(`${base}folder`)).toBe(false);
  });

  it('deletes idempotently', async () => {
    await store.put(`${base}d`, Readable.from([Buffer.from('x')]));
    await store.delete(`${base}d`);
    expect(await store.exists(`${base}d`)).toBe(false);
    await expect(store.get(`${base}d`)).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(store.delete(`${base}d`)).resolves.toBeUndefined();
    await expect(store.delete(`${base}never-was`)).resolves.toBeUndefined();
  });

  it('lists by plain string prefix with sizes', async () => {
    for (const [key, body] of [['a/1', 'one'], ['a/2', 'two!'], ['a/sub/3', ''], ['ab/4', '4444']]) {
      await store.put(`${base}${key}`, Readable.from([Buffer.from(body!)]));
    }
    const sorted = async (prefix: string) => (await collect(store.list(prefix))).sort((x, y) => x.key.localeCompare(y.key));
    const listed = await sorted(`${base}a/`);
    expect(listed.map(({ key, size }) => ({ key, size }))).toEqual([
      { key: `${base}a/1`, size: 3 }, { key: `${base}a/2`, size: 4 }, { key: `${base}a/sub/3`, size: 0 },
    ]);
    // With when each was written (the sweep of files without a row leaves young ones alone).
    for (const o of listed) expect(Number.isFinite(o.lastModified?.getTime())).toBe(true);
    // `a` without its slash also matches `ab/`: the S3 meaning, kept by the fs adapter too.
    expect((await sorted(`${base}a`)).map((o) => o.key)).toEqual([`${base}a/1`, `${base}a/2`, `${base}a/sub/3`, `${base}ab/4`]);
    expect(await sorted(`${base}zzz/`)).toEqual([]);
  });

  it('deletes everything under a prefix and nothing else', async () => {
    for (const key of ['a/1', 'a/2', 'a/sub/3', 'ab/4']) await store.put(`${base}${key}`, Readable.from([Buffer.from(key)]));
    expect(await store.deletePrefix(`${base}a/`)).toBe(3);
    expect((await collect(store.list(base))).map((o) => o.key)).toEqual([`${base}ab/4`]);
    expect(await store.deletePrefix(`${base}a/`)).toBe(0);
    expect(await store.deletePrefix(base)).toBe(1);
    expect(await collect(store.list(base))).toEqual([]);
  });

  it.each([
    '', '/abs', '..', '../x', 'a/../b', 'a/./b', 'a//b', 'a/', 'a\\b', 'a\u0000b', 'a\nb', 'x'.repeat(1025),
  ])('refuses the key %j everywhere', async (key) => {
    const source = Readable.from([Buffer.from('x')]);
    await expect(store.put(key, source)).rejects.toBeInstanceOf(InvalidObjectKeyError);
    expect(source.destroyed).toBe(true);
    await expect(store.get(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
    await expect(store.stat(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
    await expect(store.delete(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
  });

  it('refuses prefixes that climb out', async () => {
    await expect(collect(store.list('../'))).rejects.toBeInstanceOf(InvalidObjectKeyError);
    await expect(store.deletePrefix('a/../../')).rejects.toBeInstanceOf(InvalidObjectKeyError);
    await expect(store.deletePrefix('')).rejects.toBeInstanceOf(InvalidObjectKeyError);
  });

  it('accepts ordinary keys with spaces, unicode and dots in names', async () => {
    const key = `${base}objects/My Photo (1).final.jpg/ünïcødé`;
    await store.put(key, Readable.from([Buffer.from('ok')]));
    expect((await collect(store.list(base))).map((o) => o.key)).toEqual([key]);
  });
});
