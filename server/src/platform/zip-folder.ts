// A folder's regular files as one zip file on disk, streamed through yazl (one file open at a time,
// never the whole folder in memory). Symbolic links, sockets and fifos are left out and counted;
// nothing is ever followed (a file that became a link since the walk is refused, O_NOFOLLOW).
// Names are '/'-separated and UTF-8; each entry keeps its file's permission bits and mtime.
// The callers' ceilings (entries, compressed bytes) are checked here so a refused folder never
// leaves a partial zip behind: the output is removed on any failure.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

export interface ZipFolderResult {
  files: number;
  /** Uncompressed bytes of the files. */
  bytes: number;
  /** Symbolic links (and sockets, fifos) left out. */
  skipped: number;
}

export interface ZipFolderOptions {
  /** More regular files than this: ZipLimitError('entries') before anything is written. */
  maxEntries?: number;
  /** A zip larger than this: ZipLimitError('bytes'), and the partial output is removed. */
  maxBytes?: number;
  /** zlib's deflate level (1: fastest). */
  level?: number;
}

export class ZipLimitError extends Error {
  constructor(readonly limit: 'entries' | 'bytes', readonly max: number) {
    super(limit === 'entries' ? `more than ${max} files` : `larger than ${max} bytes`);
    this.name = 'ZipLimitError';
  }
}

export interface FolderFile {
  rel: string;
  full: string;
  st: fs.Stats;
}

/** The regular files under dir (relative '/'-names, sorted; top folders in skipTop left out), and how many other entries were skipped. */
export async function regularFiles(dir: string, skipTop: string[] = [], stopAfter = Infinity): Promise<{ files: FolderFile[]; skipped: number }> {
  const files: FolderFile[] = [];
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

/** Writes dir's regular files to dest (which must not exist: never overwritten). */
export async function zipFolder(dir: string, dest: string, opts: ZipFolderOptions = {}): Promise<ZipFolderResult> {
  const maxEntries = opts.maxEntries ?? Infinity;
  const maxBytes = opts.maxBytes ?? Infinity;
  const { files, skipped } = await regularFiles(dir, [], maxEntries);
  if (files.length > maxEntries) throw new ZipLimitError('entries', maxEntries);
  // Opened first and exclusively: an existing file is refused (EEXIST) and left as it was.
  const handle = await fsp.open(dest, 'wx', 0o600);
  const zip = new yazl.ZipFile();
  let bytes = 0;
  for (const f of files) {
    bytes += f.st.size;
    zip.addReadStreamLazy(f.rel, { mtime: f.st.mtime, mode: 0o100000 | (f.st.mode & 0o777), compressionLevel: opts.level, size: f.st.size }, (cb) => {
      fs.open(f.full, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW, (err, fd) => (err ? cb(err, undefined as never) : cb(null, fs.createReadStream('', { fd }))));
    });
  }
  zip.end();
  let written = 0;
  const ceiling = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      written += chunk.length;
      cb(written > maxBytes ? new ZipLimitError('bytes', maxBytes) : null, chunk);
    },
  });
  // An entry that cannot be read (gone, became a link, changed size) stops the output with its error.
  const failed = new Promise<never>((_, reject) => zip.on('error', (err: Error) => reject(unreadable(err))));
  failed.catch(() => undefined);
  try {
    await Promise.race([pipeline(zip.outputStream, ceiling, handle.createWriteStream()), failed]);
  } catch (err) {
    (zip.outputStream as unknown as Readable).destroy();
    await handle.close().catch(() => undefined);
    await fsp.rm(dest, { force: true });
    throw err;
  }
  return { files: files.length, bytes, skipped };
}

function unreadable(err: Error): Error {
  return /unexpected number of bytes/.test(err.message) ? new Error('A file changed size while it was zipped; zip the folder again') : err;
}
