// A built folder as a zip file (the deployment's archive, so that other instances can serve or
// run what this one built): streamed to disk, deflate level 1 (builds are mostly already
// compressed assets and minified code: speed over the last percent), zip32. A deployment holds
// regular files only, so symbolic links (node_modules/.bin, a venv's lib64) are left out and
// counted; nothing is ever followed. zip32 caps an archive at 65,535 entries and 4 GiB: past
// that the build is refused with the figure, never written as a broken zip.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { BuildFailedError } from './build-runner';

/** zip32's ceiling on entries. */
export const MAX_ENTRIES = 0xffff;
const MAX_BYTES = 0xffffffff;
const SMALL = 1024 * 1024;

export interface ArchiveResult {
  files: number;
  /** Uncompressed bytes of the files. */
  bytes: number;
  /** Symbolic links (and sockets, fifos) left out. */
  skipped: number;
}

interface Central {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
  mode: number;
  time: number;
  date: number;
}

/** The regular files under dir (relative '/'-names, sorted; top folders in skipTop left out), and how many other entries were skipped. */
export async function regularFiles(dir: string, skipTop: string[] = [], stopAfter = Infinity): Promise<{ files: { rel: string; full: string; st: fs.Stats }[]; skipped: number }> {
  const files: { rel: string; full: string; st: fs.Stats }[] = [];
  let skipped = 0;
  const walk = async (abs: string, rel: string) => {
    const names = (await fsp.readdir(abs)).sort();
    for (const name of names) {
      if (!rel && skipTop.includes(name)) continue;
      const full = path.join(abs, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = await fsp.lstat(full);
      if (st.isDirectory()) await walk(full, r);
      else if (st.isFile()) files.push({ rel: r, full, st });
      else skipped++;
      // Past the ceiling the answer is known: no need to walk a million more files.
      if (files.length > stopAfter) return;
    }
  };
  await walk(dir, '');
  return { files, skipped };
}

export async function writeArchive(dir: string, dest: string, maxEntries = MAX_ENTRIES): Promise<ArchiveResult> {
  const { files, skipped } = await regularFiles(dir, [], maxEntries);
  if (files.length > maxEntries) throw new BuildFailedError(`The build output has more than ${maxEntries} files; a deployment holds at most ${maxEntries}.`);
  const handle = await fsp.open(dest, 'wx', 0o600);
  const central: Central[] = [];
  let pos = 0;
  let bytes = 0;
  const write = async (buf: Buffer, at = pos) => {
    await handle.write(buf, 0, buf.length, at);
    if (at === pos) pos += buf.length;
  };
  const tooBig = () => new BuildFailedError('The build output is larger than 4 GiB compressed; a deployment holds at most 4 GiB.');
  try {
    for (const f of files) {
      const name = Buffer.from(f.rel, 'utf8');
      const { time, date } = dosTime(f.st.mtime);
      const offset = pos;
      const header = localHeader(name, time, date);
      await write(header);
      let crc = 0;
      let compressed = 0;
      let size = 0;
      // O_NOFOLLOW: a file that became a link since the walk is refused, not followed.
      const fd = await fsp.open(f.full, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
      try {
        if (f.st.size <= SMALL) {
          const data = await fd.readFile();
          crc = zlib.crc32(data);
          size = data.length;
          const out = zlib.deflateRawSync(data, { level: 1 });
          compressed = out.length;
          await write(out);
        } else {
          const deflate = zlib.createDeflateRaw({ level: 1 });
          const reader = (async () => {
            for await (const chunk of fd.createReadStream({ autoClose: false }) as AsyncIterable<Buffer>) {
              crc = zlib.crc32(chunk, crc);
              size += chunk.length;
              if (!deflate.write(chunk)) await new Promise((r) => deflate.once('drain', r));
            }
            deflate.end();
          })();
          for await (const out of deflate as AsyncIterable<Buffer>) {
            compressed += out.length;
            if (pos + out.length > MAX_BYTES) throw tooBig();
            await write(out);
          }
          await reader;
        }
      } finally {
        await fd.close();
      }
      if (size > MAX_BYTES || pos > MAX_BYTES) throw tooBig();
      // Sizes and CRC are known only now: written into the local header in place.
      const fix = Buffer.alloc(12);
      fix.writeUInt32LE(crc >>> 0, 0);
      fix.writeUInt32LE(compressed, 4);
      fix.writeUInt32LE(size, 8);
      await write(fix, offset + 14);
      bytes += size;
      central.push({ name, crc, compressed, size, offset, mode: f.st.mode & 0o777, time, date });
    }
    const cdStart = pos;
    for (const c of central) await write(centralHeader(c));
    if (pos > MAX_BYTES) throw tooBig();
    await write(endRecord(central.length, pos - cdStart, cdStart));
    await handle.close();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fsp.rm(dest, { force: true });
    throw err;
  }
  return { files: files.length, bytes, skipped };
}

const UTF8 = 1 << 11;

function localHeader(name: Buffer, time: number, date: number): Buffer {
  const b = Buffer.alloc(30);
  b.writeUInt32LE(0x04034b50, 0);
  b.writeUInt16LE(20, 4); // version needed: deflate
  b.writeUInt16LE(UTF8, 6);
  b.writeUInt16LE(8, 8); // deflate
  b.writeUInt16LE(time, 10);
  b.writeUInt16LE(date, 12);
  // 14..25: CRC and sizes, written after the data.
  b.writeUInt16LE(name.length, 26);
  b.writeUInt16LE(0, 28);
  return Buffer.concat([b, name]);
}

function centralHeader(c: Central): Buffer {
  const b = Buffer.alloc(46);
  b.writeUInt32LE(0x02014b50, 0);
  b.writeUInt16LE((3 << 8) | 20, 4); // made by Unix: the mode below means something
  b.writeUInt16LE(20, 6);
  b.writeUInt16LE(UTF8, 8);
  b.writeUInt16LE(8, 10);
  b.writeUInt16LE(c.time, 12);
  b.writeUInt16LE(c.date, 14);
  b.writeUInt32LE(c.crc >>> 0, 16);
  b.writeUInt32LE(c.compressed, 20);
  b.writeUInt32LE(c.size, 24);
  b.writeUInt16LE(c.name.length, 28);
  b.writeUInt32LE(((0o100000 | c.mode) << 16) >>> 0, 38);
  b.writeUInt32LE(c.offset, 42);
  return Buffer.concat([b, c.name]);
}

function endRecord(entries: number, size: number, offset: number): Buffer {
  const b = Buffer.alloc(22);
  b.writeUInt32LE(0x06054b50, 0);
  b.writeUInt16LE(entries, 8);
  b.writeUInt16LE(entries, 10);
  b.writeUInt32LE(size, 12);
  b.writeUInt32LE(offset, 16);
  return b;
}

function dosTime(d: Date): { time: number; date: number } {
  const year = Math.max(1980, d.getFullYear());
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}
