// The synchronous half of zip extraction: writes planned entries of an archive held in memory,
// in order, as unzip does (one thread doing mkdir/inflate/write back to back). zip-extract.ts runs
// it in a worker thread (this same file, .js from dist/ or .ts through tsx from the sources).
// It re-checks each target stays under the root, the local header, the data bounds, the size
// and the CRC-32 of every entry.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';

export interface WorkerFile {
  name: string;
  size: number;
  offset: number;
  compressedSize: number;
  method: number;
  crc32: number;
}

export interface WorkerInput {
  zipExtract: true;
  zip: Uint8Array;
  root: string;
  files: WorkerFile[];
}

export type WorkerResult = { ok: true } | { ok: false; message: string; code?: string; refused: boolean };

class Refused extends Error {}

export const crcMismatch = (name: string) => `The zip is damaged: ${JSON.stringify(name)} fails its CRC-32 check (corrupted data).`;

export function writeEntries(zip: Uint8Array, root: string, files: WorkerFile[]): void {
  const b = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
  const made = new Set<string>();
  for (const f of files) {
    const target = path.resolve(root, f.name);
    if (!target.startsWith(root + path.sep)) throw new Refused(`The zip contains an unsafe path: ${JSON.stringify(f.name)}.`);
    const o = f.offset;
    if (o + 30 > b.length || b.readUInt32LE(o) !== 0x04034b50) throw new Refused('The zip is damaged: invalid local file header.');
    const start = o + 30 + b.readUInt16LE(o + 26) + b.readUInt16LE(o + 28);
    const end = start + f.compressedSize;
    if (end > b.length) throw new Refused('The zip is damaged: file data overflows the archive.');
    let data: Buffer;
    if (f.method === 0) {
      if (f.compressedSize !== f.size) throw new Refused('The zip is damaged: compressed/uncompressed size mismatch for a stored file.');
      data = b.subarray(start, end);
    } else if (f.method === 8) {
      try {
        data = zlib.inflateRawSync(b.subarray(start, end), { maxOutputLength: f.size + 1 });
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        throw new Refused(e.code === 'ERR_BUFFER_TOO_LARGE' ? 'An entry inflated past its declared size.' : `The zip is damaged: ${e.message}.`);
      }
      if (data.length !== f.size) throw new Refused(data.length > f.size ? 'An entry inflated past its declared size.' : 'The zip is damaged: an entry is shorter than its declared size.');
    } else throw new Refused(`The zip is damaged: unsupported compression method ${f.method}.`);
    if (zlib.crc32(data) !== f.crc32 >>> 0) throw new Refused(crcMismatch(f.name));
    const dir = path.dirname(target);
    if (!made.has(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    fs.writeFileSync(target, data, { flag: 'wx', mode: 0o644 });
  }
}

function run(input: WorkerInput): WorkerResult {
  try {
    writeEntries(input.zip, input.root, input.files);
    return { ok: true };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { ok: false, message: String(e?.message), code: e?.code, refused: err instanceof Refused };
  }
}

if (!isMainThread && parentPort && (workerData as WorkerInput | undefined)?.zipExtract) {
  parentPort.postMessage(run(workerData as WorkerInput));
}
