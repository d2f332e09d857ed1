// The one archive format of a project export: a gzip'd ustar tarball of plain files, written and
// read here (no dependency, ~150 lines). The reader accepts only what the writer makes: regular
// files whose names the caller allows, each header's checksum right, nothing after the end marker
// but zeros. Entries are extracted into a folder the caller owns; their SHA-256 is computed on the
// way, so the caller compares them with the archive's own list before trusting any byte.
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import zlib from 'node:zlib';

const BLOCK = 512;
/** 11 octal digits: the ustar size field's limit (8 GiB - 1). */
export const MAX_ENTRY_BYTES = 8 ** 11 - 1;

export class ArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveError';
  }
}

function header(name: string, size: number): Buffer {
  if (Buffer.byteLength(name) > 99) throw new ArchiveError(`entry name too long: ${name}`);
  if (!Number.isSafeInteger(size) || size < 0 || size > MAX_ENTRY_BYTES) throw new ArchiveError(`entry ${name} is too large for the archive (${size} bytes)`);
  const h = Buffer.alloc(BLOCK, 0);
  h.write(name, 0, 'utf8');
  h.write('0000600\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(size.toString(8).padStart(11, '0') + '\0', 124);
  h.write(Math.floor(Date.now() / 1000).toString(8).padStart(11, '0') + '\0', 136);
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\u000000', 257, 'latin1');
  const sum = h.reduce((a, b) => a + b, 0);
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  return h;
}

/** Writes entries in order into `out` (a file), gzip'd. */
export class TarWriter {
  private readonly gzip = zlib.createGzip({ level: 6 });
  private readonly done: Promise<void>;

  constructor(out: Writable) {
    this.gzip.pipe(out);
    this.done = new Promise((resolve, reject) => {
      out.on('finish', resolve);
      out.on('error', reject);
      this.gzip.on('error', reject);
    });
    // A failure is reported by add() or finish(); never as an unhandled rejection meanwhile.
    this.done.catch(() => undefined);
  }

  private async write(chunk: Buffer): Promise<void> {
    if (!this.gzip.write(chunk)) await once(this.gzip, 'drain');
  }

  /** Adds one file of exactly `size` bytes; resolves to its SHA-256 (hex). */
  async add(name: string, size: number, body: Buffer | Readable): Promise<string> {
    await this.write(header(name, size));
    const hash = crypto.createHash('sha256');
    let written = 0;
    const chunks: AsyncIterable<Buffer> | Buffer[] = Buffer.isBuffer(body) ? [body] : (body as AsyncIterable<Buffer>);
    for await (const chunk of chunks) {
      written += chunk.length;
      if (written > size) throw new ArchiveError(`${name} changed while it was exported (more than ${size} bytes); export again`);
      hash.update(chunk);
      await this.write(chunk);
    }
    if (written !== size) throw new ArchiveError(`${name} changed while it was exported (${written} of ${size} bytes); export again`);
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    if (pad) await this.write(Buffer.alloc(pad, 0));
    return hash.digest('hex');
  }

  async finish(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2, 0));
    this.gzip.end();
    await this.done;
  }
}

export interface ExtractedEntry {
  name: string;
  size: number;
  sha256: string;
}

function parseOctal(field: Buffer, what: string): number {
  const text = field.toString('latin1').replace(/[\0 ]+$/, '').trim();
  if (!/^[0-7]+$/.test(text)) throw new ArchiveError(`the archive is corrupt (bad ${what} field in an entry header)`);
  return parseInt(text, 8);
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
  const gunzip = zlib.createGunzip();
  input.on('error', (err) => gunzip.destroy(err));
  input.pipe(gunzip);
  const entries: ExtractedEntry[] = [];
  const seen = new Set<string>();
  let buf: Buffer = Buffer.alloc(0);
  let total = 0;
  let ended = false;
  let current: { name: string; size: number; left: number; pad: number; hash: crypto.Hash; file: fsp.FileHandle } | undefined;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      for (;;) {
        if (ended) {
          if (buf.some((b) => b !== 0)) throw new ArchiveError('the archive is corrupt (data after its end)');
          buf = Buffer.alloc(0);
          break;
        }
        if (current) {
          if (current.left > 0) {
            if (!buf.length) break;
            const piece = buf.subarray(0, Math.min(current.left, buf.length));
            current.hash.update(piece);
            await current.file.write(piece);
            current.left -= piece.length;
            buf = buf.subarray(piece.length);
            continue;
          }
          if (buf.length < current.pad) break;
          buf = buf.subarray(current.pad);
          await current.file.close();
          const done = { name: current.name, size: current.size, sha256: current.hash.digest('hex') };
          current = undefined;
          entries.push(done);
          await onEntry(done);
          continue;
        }
        if (buf.length < BLOCK) break;
        const h = buf.subarray(0, BLOCK);
        buf = buf.subarray(BLOCK);
        if (h.every((b) => b === 0)) {
          ended = true;
          continue;
        }
        const stored = parseOctal(h.subarray(148, 156), 'checksum');
        const copy = Buffer.from(h);
        copy.fill(0x20, 148, 156);
        if (copy.reduce((a, b) => a + b, 0) !== stored) throw new ArchiveError('the archive is corrupt (an entry header fails its checksum)');
        const name = h.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
        const type = String.fromCharCode(h[156]);
        if (type !== '0' && type !== '\0') throw new ArchiveError(`the archive holds something other than a plain file (${JSON.stringify(name)})`);
        if (h.subarray(345, 500).some((b) => b !== 0) || !allowName(name)) throw new ArchiveError(`the archive holds an entry this format does not have: ${JSON.stringify(name)}`);
        if (seen.has(name)) throw new ArchiveError(`the archive holds ${name} twice`);
        seen.add(name);
        const size = parseOctal(h.subarray(124, 136), 'size');
        total += size;
        if (total > maxBytes) throw new ArchiveError(`the archive is larger than ${maxBytes} bytes unpacked`);
        const target = path.join(dir, name);
        await fsp.mkdir(path.dirname(target), { recursive: true });
        const file = await fsp.open(target, 'wx', 0o600);
        current = { name, size, left: size, pad: (BLOCK - (size % BLOCK)) % BLOCK, hash: crypto.createHash('sha256'), file };
      }
    }
  } catch (err) {
    await current?.file.close().catch(() => undefined);
    if (err instanceof ArchiveError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' || code === 'Z_STREAM_ERROR')
      throw new ArchiveError(`the archive is corrupt or not a .tar.gz (${(err as Error).message})`);
    throw err;
  }
  if (current || !ended) {
    await current?.file.close().catch(() => undefined);
    throw new ArchiveError('the archive is truncated (it ends before its last entry or end marker)');
  }
  return entries;
}
