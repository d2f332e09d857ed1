// Safe zip extraction (pocketbase's archive/extract.go habit): the central directory is read and
// judged in full before a single byte is written, so a refused archive leaves nothing behind.
// Refused: `..` and absolute names (yauzl itself), names over MAX_PATH_BYTES, symlinks, devices
// and any other non-regular entry, encrypted entries, duplicate names, a name that is both a file
// and a folder, and archives over the size / entry / ratio limits (zip bombs). yauzl's
// validateEntrySizes then makes the declared sizes binding while inflating.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import { fileAndFolderAsync } from './path-tree';
import { crcMismatch, type WorkerInput, type WorkerResult } from './zip-worker';
import { humanBytes } from '../../../platform/human-bytes';

export interface ZipLimits {
  /** Sum of uncompressed sizes. */
  maxTotalBytes: number;
  maxEntries: number;
  /** Uncompressed / compressed for any entry bigger than ratioFloorBytes. */
  maxRatio: number;
  ratioFloorBytes: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxTotalBytes: 512 * 1024 * 1024,
  maxEntries: 20_000,
  maxRatio: 200,
  ratioFloorBytes: 1024 * 1024,
};

/** The archive is not acceptable; the message is safe to show to the uploader. */
export class ZipRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipRefusedError';
  }
}

export interface PlannedFile {
  /** Normalised relative path, '/'-separated, wrapper folder stripped. */
  name: string;
  size: number;
  entry: yauzl.Entry;
}

export interface ZipPlan {
  files: PlannedFile[];
  totalBytes: number;
  /** A single top-level folder that wrapped everything and was stripped, if any. */
  strippedWrapper?: string;
  zip: yauzl.ZipFile;
  close(): void;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const UNIX = 3;

/** A file name (a zip entry's, a manifest path) is at most this long. */
export const MAX_PATH_BYTES = 1024;

/** Characters of entry names judged between two turns of the event loop (~20 ms of work). */
const PAUSE_NAME_CHARS = 1024 * 1024;

/** Archives up to this size are read into memory: yauzl then inflates entries in parallel,
 * where reading through one file descriptor serialises every read (measured 5x slower). */
export const IN_MEMORY_MAX = 256 * 1024 * 1024;

/** A zip: its bytes in memory (uploads up to IN_MEMORY_MAX never touch the disk) or a file. */
export type ZipSource = Buffer | string;

async function open(file: ZipSource): Promise<yauzl.ZipFile> {
  const options = { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: true, strictFileNames: false };
  const buffer = Buffer.isBuffer(file) ? file : (await fsp.stat(file)).size <= IN_MEMORY_MAX ? await fsp.readFile(file) : undefined;
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, zip?: yauzl.ZipFile) =>
      err || !zip ? reject(new ZipRefusedError(`The file is not a valid zip archive (${err?.message ?? 'unreadable'}).`)) : resolve(zip);
    if (buffer) yauzl.fromBuffer(buffer, options, done);
    else yauzl.open(file as string, options, done);
  });
}

function readEntries(zip: yauzl.ZipFile, limits: ZipLimits): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on('entry', (e: yauzl.Entry) => {
      entries.push(e);
      if (entries.length > limits.maxEntries) return reject(new ZipRefusedError(`The zip has more than ${limits.maxEntries} entries.`));
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    // yauzl reports `..`, absolute paths and broken records here.
    zip.on('error', (err: Error) => reject(new ZipRefusedError(`The zip was refused: ${err.message}.`)));
    zip.readEntry();
  });
}

/** Unix file type of an entry; DOS-made archives carry none and hold only files and folders. */
function entryKind(e: yauzl.Entry): 'file' | 'dir' | 'other' {
  const isDirName = e.fileName.endsWith('/');
  if (e.versionMadeBy >> 8 === UNIX) {
    const fmt = (e.externalFileAttributes >>> 16) & S_IFMT;
    if (fmt === 0) return isDirName ? 'dir' : 'file';
    if (fmt === S_IFDIR) return 'dir';
    if (fmt === S_IFREG && !isDirName) return 'file';
    return 'other';
  }
  return isDirName ? 'dir' : 'file';
}

export function normaliseName(raw: string): string {
  // Before anything else touches the name: V8 hashes a string over 16,383 characters by its
  // length alone, so a Set of 2,000 such names of one length took 11 s to build.
  if (Buffer.byteLength(raw) > MAX_PATH_BYTES) throw new ZipRefusedError(`The zip contains a file name longer than ${MAX_PATH_BYTES} bytes: ${JSON.stringify(`${raw.slice(0, 60)}…`)}.`);
  const name = raw.normalize('NFC');
  // eslint-disable-next-line no-control-regex -- control characters are matched on purpose, to refuse them
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new ZipRefusedError(`The zip contains a file name with control characters.`);
  const segments = name.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) throw new ZipRefusedError(`The zip contains an unsafe path: ${JSON.stringify(raw)}.`);
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) throw new ZipRefusedError(`The zip contains an absolute path: ${JSON.stringify(raw)}.`);
  return segments.join('/');
}

/** Reads and judges the whole central directory. Throws ZipRefusedError; nothing is written. */
export async function planZip(file: ZipSource, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<ZipPlan> {
  const zip = await open(file);
  try {
    const entries = await readEntries(zip, limits);
    const files: PlannedFile[] = [];
    let totalBytes = 0;
    let nameChars = 0;
    for (const e of entries) {
      // Judging names costs time in their length: other requests get a turn every
      // PAUSE_NAME_CHARS characters judged.
      nameChars += e.fileName.length;
      if (nameChars > PAUSE_NAME_CHARS) {
        nameChars = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
      const kind = entryKind(e);
      if (kind === 'other') throw new ZipRefusedError(`The zip contains a symlink or special file, which is not allowed: ${JSON.stringify(e.fileName)}.`);
      if (e.fileName.startsWith('__MACOSX/')) continue; // Finder's resource forks, never site content
      const name = normaliseName(e.fileName);
      if (kind === 'dir' || name === '') continue; // folders are implied by the files inside them
      if (e.isEncrypted()) throw new ZipRefusedError(`The zip contains an encrypted file: ${JSON.stringify(e.fileName)}.`);
      totalBytes += e.uncompressedSize;
      if (totalBytes > limits.maxTotalBytes) throw new ZipRefusedError(`The zip expands to more than ${humanBytes(limits.maxTotalBytes)}.`);
      if (e.uncompressedSize > limits.ratioFloorBytes && e.uncompressedSize > limits.maxRatio * Math.max(1, e.compressedSize)) {
        throw new ZipRefusedError(`The zip was refused: ${JSON.stringify(e.fileName)} is compressed more than ${limits.maxRatio}:1 (a zip bomb?).`);
      }
      files.push({ name, size: e.uncompressedSize, entry: e });
    }
    await assertNoClashes(files);
    const strippedWrapper = stripWrapper(files);
    return { files, totalBytes, strippedWrapper, zip, close: () => zip.close() };
  } catch (err) {
    zip.close();
    throw err;
  }

  async function assertNoClashes(list: PlannedFile[]) {
    const names = new Set<string>();
    for (const f of list) {
      if (names.has(f.name)) throw new ZipRefusedError(`The zip contains ${JSON.stringify(f.name)} twice.`);
      names.add(f.name);
    }
    const both = await fileAndFolderAsync(names);
    if (both !== undefined) throw new ZipRefusedError(`The zip contains ${JSON.stringify(both)} as both a file and a folder.`);
  }
}

/** `my-site/index.html, my-site/a.js` → `index.html, a.js`: zips made by "compress folder". */
function stripWrapper(files: PlannedFile[]): string | undefined {
  if (files.length === 0) return undefined;
  const first = files[0].name.split('/')[0];
  if (!files.every((f) => f.name.startsWith(first + '/'))) return undefined;
  for (const f of files) f.name = f.name.slice(first.length + 1);
  return first;
}

/** Fails the pipeline when an entry inflates past its declared size (belt and braces). */
class Cap extends Transform {
  private n = 0;
  private crc = 0;
  constructor(private readonly max: number, private readonly f: PlannedFile) {
    super();
  }
  override _transform(chunk: Buffer, _e: BufferEncoding, done: (err?: Error | null, data?: Buffer) => void) {
    this.n += chunk.length;
    if (this.n > this.max) return done(new ZipRefusedError('An entry inflated past its declared size.'));
    this.crc = zlib.crc32(chunk, this.crc);
    done(null, chunk);
  }
  override _flush(done: (err?: Error | null) => void) {
    done(this.crc !== this.f.entry.crc32 >>> 0 ? new ZipRefusedError(crcMismatch(this.f.name)) : null);
  }
}

function checkCrc(buf: Buffer, f: PlannedFile): Buffer {
  if (zlib.crc32(buf) !== f.entry.crc32 >>> 0) throw new ZipRefusedError(crcMismatch(f.name));
  return buf;
}

/** Writes the planned files under `dest` (a fresh folder owned by us), `concurrency` at a time. */
export async function extractPlan(plan: ZipPlan, dest: string, concurrency = 8): Promise<void> {
  const root = path.resolve(dest);
  const madeDirs = new Set<string>();
  let next = 0;
  const worker = async () => {
    while (next < plan.files.length) {
      const f = plan.files[next++];
      const target = path.resolve(root, f.name);
      if (!target.startsWith(root + path.sep)) throw new ZipRefusedError(`The zip contains an unsafe path: ${JSON.stringify(f.name)}.`);
      const dir = path.dirname(target);
      if (!madeDirs.has(dir)) {
        await fsp.mkdir(dir, { recursive: true });
        madeDirs.add(dir);
      }
      const stream = await openEntry(plan.zip, f.entry);
      // 'wx': never follow or replace anything already there. Small entries go through memory:
      // one writeFile is several times cheaper than a write stream per file (5,000-file sites).
      const write = f.size <= SMALL_ENTRY ? collect(stream, f.size).then((buf) => fsp.writeFile(target, checkCrc(buf, f), { flag: 'wx', mode: 0o644 })) :
        pipeline(stream, new Cap(f.size, f), fs.createWriteStream(target, { flags: 'wx', mode: 0o644 }));
      await write.catch((err: NodeJS.ErrnoException) => {
        // Disk trouble is ours (500); anything else came from the archive: bad data, lying sizes, CRC.
        if (err instanceof ZipRefusedError || /^E[A-Z]+$/.test(err.code ?? '')) throw err;
        throw new ZipRefusedError(`The zip is damaged: ${err.message}.`);
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, plan.files.length) }, worker));
}

/** The one way to write a judged plan: in a worker when the archive is in memory, streamed otherwise. */
export function extractTo(plan: ZipPlan, zip: ZipSource, dest: string): Promise<void> {
  return Buffer.isBuffer(zip) ? extractPlanInWorker(plan, zip, dest) : extractPlan(plan, dest);
}

const SMALL_ENTRY = 4 * 1024 * 1024;

function collect(stream: NodeJS.ReadableStream, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let n = 0;
    stream.on('data', (c: Buffer) => {
      n += c.length;
      if (n > max) {
        (stream as unknown as { destroy(): void }).destroy();
        reject(new ZipRefusedError('An entry inflated past its declared size.'));
      } else chunks.push(c);
    });
    stream.on('error', reject);
    stream.on('end', () => resolve(Buffer.concat(chunks, n)));
  });
}

/** One planned file's text (undefined when absent or over `max` bytes): a peek before extracting. */
export async function readPlannedText(plan: ZipPlan, name: string, max: number): Promise<string | undefined> {
  const f = plan.files.find((x) => x.name === name);
  if (!f || f.size > max) return undefined;
  return checkCrc(await collect(await openEntry(plan.zip, f.entry), f.size), f).toString('utf8');
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) => (err ? reject(new ZipRefusedError(`The zip is damaged: ${err.message}.`)) : resolve(stream))),
  );
}

// The worker is zip-worker next to this file with the same extension: .js when the server runs
// from dist/, .ts under tsx or jest (sources), where the worker registers tsx first.
const WORKER_FILE = path.join(__dirname, `zip-worker${path.extname(__filename)}`);
const workerScript = (): { script: string; eval: boolean } =>
  path.extname(__filename) === '.ts'
    ? { script: `require('tsx/cjs'); require(${JSON.stringify(WORKER_FILE)});`, eval: true }
    : { script: WORKER_FILE, eval: false };

/**
 * extractPlan for an archive held in memory, done by a worker thread with synchronous writes
 * (measured on a 5,000-file deploy: see bench/hosting.ts). Same outcomes: ZipRefusedError for
 * anything the archive is to blame for (CRC-32 included), the fs error (with its code) for disk trouble.
 */
export async function extractPlanInWorker(plan: ZipPlan, zip: Buffer, dest: string): Promise<void> {
  const root = path.resolve(dest);
  const files = plan.files.map((f) => ({
    name: f.name,
    size: f.size,
    offset: f.entry.relativeOffsetOfLocalHeader,
    compressedSize: f.entry.compressedSize,
    method: f.entry.compressionMethod,
    crc32: f.entry.crc32,
  }));
  const { script, eval: isEval } = workerScript();
  const input: WorkerInput = { zipExtract: true, zip, root, files };
  const worker = new Worker(script, { eval: isEval, workerData: input });
  const result = await new Promise<WorkerResult>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the extraction worker exited (${code})`)));
  }).finally(() => void worker.terminate());
  if (result.ok) return;
  if (result.refused) throw new ZipRefusedError(result.message);
  throw Object.assign(new Error(result.message), { code: result.code });
}
