// Local-disk ObjectStore, the default backend (DATA_DIR/storage).
//
// Layout under `root`:
//   objects/<key>        the bytes, a plain file, so an operator can read or back it up with cp
//   meta/<key>.json      { etag (random version id), contentType }: a sidecar in a separate tree rather than beside
//                        the file, so no key (e.g. one ending in ".meta.json") can collide with it
//   tmp/<uuid>           writes in flight; renamed into place only when complete
//
// Limitation: a key cannot also be a "directory" of another key (`a/b` and `a/b/c`), which S3
// allows. Hostbase keys (`projects/<id>/objects/<objectId>`) never do that.
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertPutOptions, assertValidDeletePrefix, assertValidKey, assertValidPrefix, ByteLimit, existsByStat, ObjectNotFoundError,
  servedRange,
  type ByteRange, type GetResult, type ListedObject, type ObjectInfo, type ObjectStore, type PutOptions,
  type PutResult,
} from './object-store';

/** Big buffers: fewer syscalls, and the storage bench compares throughput with `cp`. */
const CHUNK = 1 << 20;
/** What S3 records when a PUT names no type; used here too so both adapters answer alike. */
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
/** Temp files older than this at start-up were left by a crash; younger ones may be in flight. */
const STALE_TMP_MS = 24 * 3600 * 1000;

interface Sidecar {
  etag: string;
  contentType?: string;
}

export interface FsObjectStoreOptions {
  root: string;
  /**
   * fsync each object before it becomes visible. Off by default: the rename is already atomic
   * for readers, and an fsync per upload costs throughput; turn it on where surviving a power cut
   * with a file the database already points to matters more than speed.
   */
  fsync?: boolean;
  /**
   * This process is the only writer of `root` (the app's own DATA_DIR/storage): every temp file
   * found at init was left by a crash (a killed upload or deploy archive) and is removed. Without
   * it, only temp files older than a day are (another process may be writing the others).
   */
  soleWriter?: boolean;
}

export class FsObjectStore implements ObjectStore {
  private readonly objects: string;
  private readonly meta: string;
  private readonly tmp: string;

  constructor(private readonly opts: FsObjectStoreOptions) {
    this.objects = path.join(opts.root, 'objects');
    this.meta = path.join(opts.root, 'meta');
    this.tmp = path.join(opts.root, 'tmp');
  }

  /** Creates the folders and clears temp files a crashed process left behind. */
  async init(): Promise<void> {
    await Promise.all([this.objects, this.meta, this.tmp].map((dir) => fsp.mkdir(dir, { recursive: true })));
    const now = Date.now(); // compared with file mtimes, which the filesystem stamps in real time
    for (const name of await fsp.readdir(this.tmp)) {
      const file = path.join(this.tmp, name);
      const st = await fsp.stat(file).catch(() => undefined);
      if (st && (this.opts.soleWriter || now - st.mtimeMs > STALE_TMP_MS)) await fsp.rm(file, { force: true });
    }
  }

  async put(key: string, body: Readable, opts: PutOptions = {}): Promise<PutResult> {
    // Same filesystem as the destination, so the final rename is atomic.
    const tmpData = path.join(this.tmp, randomUUID());
    const tmpMeta = `${tmpData}.json`;
    let metaPublished = false;
    try {
      assertValidKey(key);
      assertPutOptions(opts);
      await fsp.mkdir(this.tmp, { recursive: true });
      const limit = new ByteLimit(opts);
      await pipeline(body, limit, createWriteStream(tmpData, { flags: 'wx', highWaterMark: CHUNK }));
      if (this.opts.fsync) await fsyncFile(tmpData);
      const sidecar: Sidecar = { etag: versionId(), contentType: opts.contentType ?? DEFAULT_CONTENT_TYPE };
      await fsp.writeFile(tmpMeta, JSON.stringify(sidecar), { flag: 'wx' });
      // Sidecar first: a reader can then never find bytes without their etag; at worst it briefly
      // sees a new sidecar beside the old bytes of an object being overwritten.
      await renameInto(tmpMeta, this.metaPath(key));
      metaPublished = true;
      await renameInto(tmpData, this.dataPath(key));
      return { size: limit.bytes, etag: sidecar.etag };
    } catch (err) {
      body.destroy(); // already done by pipeline on its own failures; this covers the others
      await Promise.all([fsp.rm(tmpData, { force: true }), fsp.rm(tmpMeta, { force: true })]);
      if (metaPublished && !(await this.exists(key))) await fsp.rm(this.metaPath(key), { force: true });
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<GetResult> {
    assertValidKey(key);
    // Open first and read through the descriptor: a delete racing this read cannot pull the
    // file out from under a half-sent response.
    const handle = await fsp.open(this.dataPath(key), 'r').catch((err: unknown) => {
      throw isMissing(err) ? new ObjectNotFoundError(key) : err;
    });
    try {
      const st = await handle.stat();
      if (!st.isFile()) throw new ObjectNotFoundError(key); // a folder of other keys, not an object
      const info = await this.describe(key, st);
      const served = range && servedRange(range, info.size);
      const body = createReadStream('', { fd: handle, highWaterMark: CHUNK, ...served });
      return { ...info, body, range: served };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async stat(key: string): Promise<ObjectInfo> {
    assertValidKey(key);
    const st = await fsp.stat(this.dataPath(key)).catch((err: unknown) => {
      throw isMissing(err) ? new ObjectNotFoundError(key) : err;
    });
    if (!st.isFile()) throw new ObjectNotFoundError(key);
    return this.describe(key, st);
  }

  exists(key: string): Promise<boolean> {
    return existsByStat(this, key);
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    // Bytes before sidecar, the mirror of put's order.
    await fsp.rm(this.dataPath(key), { force: true });
    await fsp.rm(this.metaPath(key), { force: true });
    await Promise.all([pruneEmptyDirs(this.objects, this.dataPath(key)), pruneEmptyDirs(this.meta, this.metaPath(key))]);
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertValidDeletePrefix(prefix);
    // Collect first: deleting while a directory handle is being iterated is unspecified.
    const keys: string[] = [];
    for await (const { key } of this.list(prefix)) keys.push(key);
    for (const key of keys) await this.delete(key);
    return keys.length;
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    assertValidPrefix(prefix);
    // S3 semantics: a string prefix, so walk from its last complete folder and filter.
    const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
    for await (const file of walk(path.join(this.objects, ...folder.split('/')))) {
      const key = path.relative(this.objects, file).split(path.sep).join('/');
      if (!key.startsWith(prefix)) continue;
      const st = await fsp.stat(file).catch(() => undefined); // deleted meanwhile: skip it
      if (st?.isFile()) yield { key, size: st.size, lastModified: st.mtime };
    }
  }

  private async describe(key: string, st: { size: number; mtime: Date }): Promise<ObjectInfo> {
    const raw = await fsp.readFile(this.metaPath(key), 'utf8').catch((err: unknown) => {
      if (isMissing(err)) return undefined;
      throw err;
    });
    // No sidecar only if it was lost outside Hostbase; a size+mtime etag still changes with content.
    const sidecar: Sidecar = raw ? JSON.parse(raw) : { etag: `${st.size.toString(16)}-${st.mtime.getTime().toString(16)}` };
    return { size: st.size, etag: sidecar.etag, lastModified: st.mtime, contentType: sidecar.contentType };
  }

  private dataPath(key: string): string {
    return inside(this.objects, path.join(this.objects, ...key.split('/')));
  }

  private metaPath(key: string): string {
    return inside(this.meta, `${path.join(this.meta, ...key.split('/'))}.json`);
  }
}

/** Belt and braces behind key validation: a path must never resolve outside its tree. */
function inside(root: string, p: string): string {
  if (!path.resolve(p).startsWith(path.resolve(root) + path.sep)) throw new Error(`path escapes storage root: ${p}`);
  return p;
}

/** mkdir -p then rename; retried because a concurrent delete may prune the folder in between. */
async function renameInto(from: string, to: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await fsp.mkdir(path.dirname(to), { recursive: true });
    try {
      return await fsp.rename(from, to);
    } catch (err) {
      if (!isMissing(err) || attempt >= 3) throw err;
    }
  }
}

/** Removes now-empty folders up to (not including) root, so deleted projects leave no skeleton. */
async function pruneEmptyDirs(root: string, file: string): Promise<void> {
  for (let dir = path.dirname(file); dir.startsWith(root + path.sep); dir = path.dirname(dir)) {
    try {
      await fsp.rmdir(dir);
    } catch {
      return; // not empty (or already gone): stop climbing
    }
  }
}

async function* walk(dir: string): AsyncGenerator<string> {
  let entries;
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isMissing(err) || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return;
    throw err;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

async function fsyncFile(file: string): Promise<void> {
  const handle = await fsp.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * The etag of one written version: random, not a hash of the bytes. An etag only has to change
 * when the bytes do, and here bytes never change in place (every put writes a new file and
 * renames it over the old one), so a fresh id per put is a valid strong validator. Hashing was
 * the costliest stage of an upload: bench/storage.ts measured ~0.16 s of the server's ~0.5 s of
 * CPU per 256 MiB upload spent in sha256, and best upload throughput going from ~440 to ~560 MB/s
 * without it. The price: re-uploading identical bytes gives a new etag, so a client downloads
 * once more. 128 bits, hex: the shape of an S3 single-part etag.
 */
function versionId(): string {
  return randomBytes(16).toString('hex');
}

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException)?.code === 'ENOENT';
}
