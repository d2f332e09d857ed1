// The export's tar.gz reader keeps to what the writer makes, whatever tar-stream could read:
// plain files only, each name once, inside the target folder and allowed by the caller, under the
// size ceiling, the end marker present; a corrupt gzip or tar header is named as such.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import { ArchiveError, TarWriter, extractTar } from '../../server/src/modules/backup/tar';

let dir: string;
beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'hostbase-tar-'));
});
afterEach(() => fsp.rm(dir, { recursive: true, force: true }));

type Entry = { name: string; body?: string; type?: 'file' | 'symlink' | 'directory'; linkname?: string };

/** A tar.gz made by tar-stream itself, so it can hold what the platform's writer never writes. */
async function crafted(entries: Entry[], opts: { end?: boolean } = {}): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((r) => pack.on('end', r));
  for (const e of entries) pack.entry({ name: e.name, type: e.type ?? 'file', linkname: e.linkname }, e.type === 'file' || !e.type ? (e.body ?? '') : undefined);
  pack.finalize();
  await ended;
  let raw = Buffer.concat(chunks);
  if (opts.end === false) raw = raw.subarray(0, raw.length - 1024);
  return zlib.gzipSync(raw);
}

const extract = (gz: Buffer, allow: (n: string) => boolean = () => true, max = 2 ** 20) => extractTar(Readable.from([gz]), dir, allow, max);

test('what the writer writes comes back with the same bytes and SHA-256 sums, each file 0600', async () => {
  const file = path.join(dir, '..', `${path.basename(dir)}.tar.gz`);
  const tw = new TarWriter(fs.createWriteStream(file));
  const big = Buffer.alloc(3 * 1024 * 1024 + 7, 'x');
  const sums = [await tw.add('manifest.json', 2, Buffer.from('{}')), await tw.add('objects/000001', big.length, Readable.from([big.subarray(0, 1000), big.subarray(1000)])), await tw.add('empty', 0, Buffer.alloc(0))];
  await tw.finish();
  const entries = await extractTar(fs.createReadStream(file), dir, () => true, 2 ** 30);
  await fsp.rm(file);
  expect(entries.map((e) => [e.name, e.size, e.sha256])).toEqual([
    ['manifest.json', 2, sums[0]],
    ['objects/000001', big.length, sums[1]],
    ['empty', 0, sums[2]],
  ]);
  expect((await fsp.readFile(path.join(dir, 'objects/000001'))).equals(big)).toBe(true);
  expect((await fsp.stat(path.join(dir, 'manifest.json'))).mode & 0o777).toBe(0o600);
});

test('a body longer or shorter than announced stops the writer with the entry named', async () => {
  const tw = new TarWriter(fs.createWriteStream(path.join(dir, 'x.tar.gz')));
  await expect(tw.add('data.json', 3, Buffer.from('four'))).rejects.toThrow('data.json changed while it was exported (more than 3 bytes); export again');
  const tw2 = new TarWriter(fs.createWriteStream(path.join(dir, 'y.tar.gz')));
  await expect(tw2.add('data.json', 5, Buffer.from('four'))).rejects.toThrow('data.json changed while it was exported (4 of 5 bytes); export again');
});

test.each<[string, Entry[], RegExp]>([
  ['a symbolic link', [{ name: 'manifest.json', type: 'symlink', linkname: '/etc/passwd' }], /something other than a plain file \("manifest.json"\)/],
  ['a folder', [{ name: 'tables', type: 'directory' }], /something other than a plain file/],
  ['a name twice', [{ name: 'a', body: '1' }, { name: 'a', body: '2' }], /holds a twice/],
  ['a path out of the folder', [{ name: '../escaped', body: 'x' }], /an entry this format does not have: "..\/escaped"/],
])('%s is refused', async (_what, entries, message) => {
  const err = await extract(await crafted(entries)).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ArchiveError);
  expect((err as Error).message).toMatch(message);
  expect(fs.existsSync(path.join(dir, '..', 'escaped'))).toBe(false);
});

test('a name the caller does not allow, and more bytes than the ceiling, are refused', async () => {
  await expect(extract(await crafted([{ name: 'other.txt', body: 'x' }]), (n) => n === 'manifest.json')).rejects.toThrow('an entry this format does not have: "other.txt"');
  await expect(extract(await crafted([{ name: 'a', body: 'x'.repeat(11) }]), () => true, 10)).rejects.toThrow('the archive is larger than 10 bytes unpacked');
});

test('an archive without its end marker is truncated; a damaged header or gzip is corrupt', async () => {
  await expect(extract(await crafted([{ name: 'a', body: 'x' }], { end: false }))).rejects.toThrow('the archive is truncated');
  const raw = zlib.gunzipSync(await crafted([{ name: 'a', body: 'x' }]));
  raw[0] ^= 0xff; // the name, so the header's checksum no longer matches
  await expect(extract(zlib.gzipSync(raw))).rejects.toThrow(/^the archive is corrupt \(Invalid tar header/);
  await expect(extract(Buffer.from('not gzip'))).rejects.toThrow(/^the archive is corrupt or not a \.tar\.gz/);
});
