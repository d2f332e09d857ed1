// The one contract between Hostbase and the bytes of stored files. Services depend on this
// interface only; object-store.fs.ts (local disk, the default) and object-store.s3.ts
// (MinIO / S3) implement it, and object-store.test.ts runs one suite against both.
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { YoungBufferRelease } from '../young-buffers';

export interface PutOptions {
  contentType?: string;
  /** Declared length. When given, a body of any other length is refused (ObjectSizeMismatchError). */
  size?: number;
  /** Hard cap. Exceeding it aborts the write, leaves nothing behind and throws ObjectTooLargeError. */
  maxBytes?: number;
}

export interface PutResult {
  size: number;
  /**
   * Opaque, quoted by the HTTP layer as is: it changes whenever the object's bytes change (and is
   * stable while they don't). fs: a random 128-bit version id (hex) per put, not a content hash,
   * so identical bytes put twice get two etags; S3: what the server returns (md5 hex for a
   * single-part PUT on MinIO and s3rver).
   */
  etag: string;
}

/** Inclusive byte offsets, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface ObjectInfo {
  /** Size of the whole object, also for ranged reads. */
  size: number;
  etag: string;
  lastModified: Date;
  contentType?: string;
}

export interface GetResult extends ObjectInfo {
  body: Readable;
  /** The range actually served: `end` is clamped to size - 1, as HTTP does for `bytes=0-999999`. */
  range?: ByteRange;
}

export interface ListedObject {
  key: string;
  size: number;
  /** When the object was last written, where the store tells (both of ours do). */
  lastModified?: Date;
}

export interface ObjectStore {
  /**
   * Streams `body` into the object `key`, replacing any previous object only once the new one is
   * complete. Takes ownership of `body`: it is consumed, and destroyed on failure. Whatever goes
   * wrong (too large, wrong size, source error), nothing new is left behind and the old object,
   * if any, is untouched.
   */
  put(key: string, body: Readable, opts?: PutOptions): Promise<PutResult>;
  /** Throws ObjectNotFoundError, or RangeNotSatisfiableError when range.start >= size. */
  get(key: string, range?: ByteRange): Promise<GetResult>;
  /** Throws ObjectNotFoundError. */
  stat(key: string): Promise<ObjectInfo>;
  exists(key: string): Promise<boolean>;
  /** Idempotent: deleting a missing object succeeds. */
  delete(key: string): Promise<void>;
  /**
   * Deletes every object whose key starts with `prefix` (a plain string prefix, as in S3:
   * `projects/1` also matches `projects/10/...`, so pass `projects/1/`). Returns how many.
   */
  deletePrefix(prefix: string): Promise<number>;
  /** Every object whose key starts with `prefix`, in no guaranteed order. */
  list(prefix: string): AsyncIterable<ListedObject>;
}

// Typed errors, so the HTTP layer can map them to 404 / 413 / 416 / 400 without string matching.
export class ObjectStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export class ObjectNotFoundError extends ObjectStoreError {
  constructor(readonly key: string) {
    super(`object not found: ${key}`);
  }
}

export class ObjectTooLargeError extends ObjectStoreError {
  constructor(readonly maxBytes: number) {
    super(`object exceeds the limit of ${maxBytes} bytes`);
  }
}

export class ObjectSizeMismatchError extends ObjectStoreError {
  constructor(readonly declared: number, readonly actual: number) {
    super(`declared size ${declared} but the body had ${actual > declared ? 'more' : actual} bytes`);
  }
}

export class RangeNotSatisfiableError extends ObjectStoreError {
  constructor(readonly range: ByteRange, readonly size: number) {
    super(`range ${range.start}-${range.end} is outside an object of ${size} bytes`);
  }
}

export class InvalidObjectKeyError extends ObjectStoreError {
  constructor(readonly key: string, reason: string) {
    super(`invalid object key ${JSON.stringify(key)}: ${reason}`);
  }
}

/** S3's own limit on key length, applied to both adapters so a key valid on disk is valid on S3. */
const MAX_KEY_BYTES = 1024;

/**
 * Keys become file paths in the fs adapter, so anything that could climb out of the root or
 * mean different things on different systems is refused for both adapters alike.
 */
export function assertValidKey(key: string): void {
  assertValidPrefix(key);
  if (key === '') throw new InvalidObjectKeyError(key, 'empty');
  if (key.endsWith('/')) throw new InvalidObjectKeyError(key, 'ends with a slash');
}

/** Like a key, but may be empty (list everything) or end with a slash. */
export function assertValidPrefix(prefix: string): void {
  if (typeof prefix !== 'string') throw new InvalidObjectKeyError(String(prefix), 'not a string');
  if (Buffer.byteLength(prefix) > MAX_KEY_BYTES) throw new InvalidObjectKeyError(prefix, 'too long');
  if (prefix.startsWith('/')) throw new InvalidObjectKeyError(prefix, 'leading slash');
  if (prefix.includes('\\')) throw new InvalidObjectKeyError(prefix, 'backslash');
  // eslint-disable-next-line no-control-regex -- control characters are matched on purpose, to refuse them
  if (/[\u0000-\u001f\u007f]/.test(prefix)) throw new InvalidObjectKeyError(prefix, 'control character');
  const segments = prefix.split('/');
  segments.forEach((segment, i) => {
    const isTrailing = i === segments.length - 1;
    if (segment === '' && !isTrailing) throw new InvalidObjectKeyError(prefix, 'empty segment');
    if (segment === '.' || segment === '..') throw new InvalidObjectKeyError(prefix, 'dot segment');
  });
}

/** A prefix to delete under: never empty, since that would empty the whole store. */
export function assertValidDeletePrefix(prefix: string): void {
  assertValidPrefix(prefix);
  if (prefix === '') throw new InvalidObjectKeyError(prefix, 'refusing to delete every object');
}

/** The range to serve from an object of `size` bytes: `end` clamped as HTTP does, or 416. */
export function servedRange(range: ByteRange, size: number): ByteRange {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start || start >= size) {
    throw new RangeNotSatisfiableError(range, size);
  }
  return { start, end: Math.min(end, size - 1) };
}

/** Size checks done before any byte moves, so an over-declared upload costs nothing. */
export function assertPutOptions(opts: PutOptions): void {
  const { size, maxBytes } = opts;
  if (size !== undefined && !(Number.isSafeInteger(size) && size >= 0)) throw new TypeError(`bad size ${size}`);
  if (maxBytes !== undefined && !(Number.isSafeInteger(maxBytes) && maxBytes >= 0)) {
    throw new TypeError(`bad maxBytes ${maxBytes}`);
  }
  if (size !== undefined && maxBytes !== undefined && size > maxBytes) throw new ObjectTooLargeError(maxBytes);
}

/**
 * A pass-through that counts bytes and fails the pipeline as soon as the body breaks
 * `maxBytes` or its declared `size`: failing mid-stream, not after, is what keeps a too-large
 * upload from ever being fully written. Every put's bytes pass here, so it also has the stream's
 * dead chunks freed as it goes (platform/young-buffers.ts).
 */
export class ByteLimit extends Transform {
  bytes = 0;
  private readonly release = new YoungBufferRelease();

  /**
   * Stream's default buffers (16 KiB: one chunk at a time) rather than 1 MiB each way: the
   * store's write stream batches already, and chunks held here too lived through more scavenges,
   * reached the old generation and waited for a full GC. Measured with bench/upload-memory.ts
   * (256 MiB, PGlite reopened): peak ~17 -> ~11 MB over the idle RSS, server CPU per upload halved.
   */
  constructor(private readonly opts: PutOptions) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    this.release.add(chunk.length);
    const { maxBytes, size } = this.opts;
    if (maxBytes !== undefined && this.bytes > maxBytes) return done(new ObjectTooLargeError(maxBytes));
    if (size !== undefined && this.bytes > size) return done(new ObjectSizeMismatchError(size, this.bytes));
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    const { size } = this.opts;
    if (size !== undefined && this.bytes !== size) return done(new ObjectSizeMismatchError(size, this.bytes));
    done();
  }
}

/** exists() for adapters whose stat() throws ObjectNotFoundError for a missing key. */
export async function existsByStat(store: Pick<ObjectStore, 'stat'>, key: string): Promise<boolean> {
  try {
    await store.stat(key);
    return true;
  } catch (err) {
    if (err instanceof ObjectNotFoundError) return false;
    throw err;
  }
}
