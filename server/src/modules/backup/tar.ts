// The one archive format of a project export: a gzip'd tarball of plain files, written and read with
// tar-stream (ustar headers; pax for what ustar can't name). The reader keeps to what the writer
// makes: regular files whose names the caller allows, each header's checksum right (tar-stream
// checks it), each name once and inside the target folder, the end marker present. Entries are
// extracted into a folder the caller owns; their SHA-256 is computed on the way, so the caller
// compares them with the archive's own list before trusting any byte.
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { Transform, type Readable, type Writable } from 'node:stream';
import zlib from 'node:zlib';
import tar from 'tar-stream';

/** The end of a tarball: two blocks of zeros. */
const END_MARKER = 1024;

export class ArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveError';
  }
}

/** Writes entries in order into `out` (a file), gzip'd. */
export class TarWriter {
  private readonly pack = tar.pack();
  private readonly gzip = zlib.createGzip({ level: 6 });
  private readonly done: Promise<void>;

  constructor(out: Writable) {
    this.pack.pipe(this.gzip).pipe(out);
    this.done = new Promise((resolve, reject) => {
      out.on('finish', resolve);
      out.on('error', reject);
      this.gzip.on('error', reject);
      this.pack.on('error', reject);
    });
    // A failure is reported by add() or finish(); never as an unhandled rejection meanwhile.
    this.done.catch(() => undefined);
  }

  /** Adds one file of exactly `size` bytes; resolves to its SHA-256 (hex). */
  async add(name: string, size: number, body: Buffer | Readable): Promise<string> {
    if (!Number.isSafeInteger(size) || size < 0) throw new ArchiveError(`entry ${name} has no valid size (${size})`);
    let entry!: ReturnType<typeof this.pack.entry>;
    // Settled once the entry is complete in the tarball (or failed).
    const written = new Promise<void>((resolve, reject) => {
      entry = this.pack.entry({ name, size, mode: 0o600, mtime: new Date(), type: 'file' }, (err) => (err ? reject(err) : resolve()));
    });
    written.catch(() => undefined);
    // Reported by the throw below (and by finish()), not as an unhandled 'error' event.
    entry.on('error', () => undefined);
    const hash = crypto.createHash('sha256');
    let count = 0;
    try {
      const chunks: AsyncIterable<Buffer> | Buffer[] = Buffer.isBuffer(body) ? [body] : (body as AsyncIterable<Buffer>);
      for await (const chunk of chunks) {
        count += chunk.length;
        if (count > size) throw new ArchiveError(`${name} changed while it was exported (more than ${size} bytes); export again`);
        hash.update(chunk);
        if (!entry.write(chunk)) await once(entry, 'drain');
      }
      if (count !== size) throw new ArchiveError(`${name} changed while it was exported (${count} of ${size} bytes); export again`);
    } catch (err) {
      entry.destroy(err as Error);
      throw err;
    }
    entry.end();
    await written;
    return hash.digest('hex');
  }

  async finish(): Promise<void> {
    this.pack.finalize();
    await this.done;
  }
}

export interface ExtractedEntry {
  name: string;
  size: number;
  sha256: string;
}

/** Passes bytes through, keeping the last END_MARKER of them: was the archive's end marker there? */
class TailKeeper extends Transform {
  tail = Buffer.alloc(0);
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null, data?: Buffer) => void): void {
    this.tail = Buffer.concat([this.tail, chunk.subarray(Math.max(0, chunk.length - END_MARKER))]);
    if (this.tail.length > END_MARKER) this.tail = this.tail.subarray(this.tail.length - END_MARKER);
    cb(null, chunk);
  }
  ended(): boolean {
    return this.tail.length === END_MARKER && this.tail.every((b) => b === 0);
  }
}

function archiveError(err: unknown): unknown {
  if (err instanceof ArchiveError) return err;
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'Z_DATA_ERROR' || e.code === 'Z_BUF_ERROR' || e.code === 'Z_STREAM_ERROR') return new ArchiveError(`the archive is corrupt or not a .tar.gz (${e.message})`);
  if (/^Invalid tar header/.test(e.message ?? '')) return new ArchiveError(`the archive is corrupt (${e.message.replace(/\.?\s*Maybe.*$/, '')})`);
  if (e.message === 'Unexpected end of data') return new ArchiveError('the archive is truncated (it ends before its last entry or end marker)');
  return err;
}

/**
 * Extracts the gzip'd tar `input` into `dir` (which must exist and be empty). Every name must pass
 * `allowName` (so it is a plain relative path the caller chose); no name may repeat; the total is
 * bounded by `maxBytes`. Throws ArchiveError for anything else, leaving the folder to the caller.
 */
export async function extractTar(
  input: Readable,
  dir: string,
  allowName: (name: string) => boolean,
  maxBytes: number,
  onEntry: (entry: ExtractedEntry) => Promise<void> = async () => undefined,
): Promise<ExtractedEntry[]> {
  const root = path.resolve(dir);
  const gunzip = zlib.createGunzip();
  const tail = new TailKeeper();
  const extract = tar.extract();
  // The first failure is the one to report: the streams it tears down after it only say they were destroyed.
  let cause: Error | undefined;
  const fail = (err: Error) => {
    cause ??= err;
    extract.destroy(err);
  };
  extract.on('error', (err: Error) => (cause ??= err));
  input.on('error', fail);
  gunzip.on('error', fail);
  tail.on('error', fail);
  input.pipe(gunzip).pipe(tail).pipe(extract);
  const entries: ExtractedEntry[] = [];
  const seen = new Set<string>();
  let total = 0;
  try {
    for await (const entry of extract) {
      const { name, type, size = 0 } = entry.header;
      if (type !== 'file') throw new ArchiveError(`the archive holds something other than a plain file (${JSON.stringify(name)})`);
      const target = path.resolve(root, name);
      if (!allowName(name) || !target.startsWith(root + path.sep)) throw new ArchiveError(`the archive holds an entry this format does not have: ${JSON.stringify(name)}`);
      if (seen.has(name)) throw new ArchiveError(`the archive holds ${name} twice`);
      seen.add(name);
      total += size;
      if (total > maxBytes) throw new ArchiveError(`the archive is larger than ${maxBytes} bytes unpacked`);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      const hash = crypto.createHash('sha256');
      const file = await fsp.open(target, 'wx', 0o600);
      try {
        for await (const chunk of entry as AsyncIterable<Buffer>) {
          hash.update(chunk);
          await file.write(chunk);
        }
      } finally {
        await file.close();
      }
      const done = { name, size, sha256: hash.digest('hex') };
      entries.push(done);
      await onEntry(done);
    }
  } catch (err) {
    extract.destroy();
    input.destroy();
    throw archiveError(err instanceof ArchiveError ? err : (cause ?? err));
  }
  if (!tail.ended()) throw new ArchiveError('the archive is truncated (it ends before its last entry or end marker)');
  return entries;
}
