// S3 / MinIO ObjectStore over the `minio` client. MinIO is the production target; the tests run
// against s3rver, which has no multipart uploads, so every write here is a single PUT.
//
// How uploads work, and why not client.putObject: for any object up to its part size (64 MiB)
// minio 8 reads the whole stream into one Buffer before sending, and for a stream of unknown
// size it always starts a multipart upload (5 TiB assumed), which buffers 500+ MiB parts and
// which s3rver refuses. Instead the body is first spooled to a local temp file (enforcing
// maxBytes and the declared size as it goes), then that file is streamed, never held in
// memory, into one PUT on a presigned URL (query-signed, so the payload need not be hashed
// up front). Spooling costs a local write and read, and buys: a client that hangs up mid-upload
// never reaches S3 at all (s3rver, unlike S3/MinIO, writes a PUT in place and would keep a
// torn object), the Content-Length is always known, and a slow client never holds an S3
// connection open.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as http from 'node:http';
import * as https from 'node:https';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'minio';
import {
  assertPutOptions, assertValidDeletePrefix, assertValidKey, assertValidPrefix, ByteLimit, existsByStat, ObjectNotFoundError,
  ObjectStoreError, servedRange,
  type ByteRange, type GetResult, type ListedObject, type ObjectInfo, type ObjectStore, type PutOptions,
  type PutResult,
} from './object-store';

/** S3's ceiling for a single PUT. */
const MAX_SINGLE_PUT = 5 * 1024 ** 3;
/** DeleteObjects accepts at most 1000 keys per request. */
const DELETE_BATCH = 1000;
/** Only has to outlive the start of a PUT from a local file; the URL never leaves this process. */
const PRESIGN_SECONDS = 15 * 60;
const CHUNK = 1 << 20;

export interface S3ObjectStoreOptions {
  /** e.g. http://127.0.0.1:9000 */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region?: string;
  /** Where bodies of unknown size are spooled before upload. */
  spoolDir: string;
}

export class S3ObjectStore implements ObjectStore {
  private readonly client: Client;
  private readonly bucket: string;
  private readonly region: string;

  constructor(private readonly opts: S3ObjectStoreOptions) {
    const url = new URL(opts.endpoint);
    const useSSL = url.protocol === 'https:';
    this.client = new Client({
      endPoint: url.hostname,
      port: url.port ? Number(url.port) : useSSL ? 443 : 80,
      useSSL,
      accessKey: opts.accessKey,
      secretKey: opts.secretKey,
      region: opts.region,
      // Path style works with any host name or IP; virtual-host style needs wildcard DNS.
      pathStyle: true,
    });
    this.bucket = opts.bucket;
    this.region = opts.region ?? 'us-east-1';
  }

  async ensureBucket(): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket, this.region);
    } catch (err) {
      // Another instance created it between our check and our create.
      if (s3Code(err) !== 'BucketAlreadyOwnedByYou') throw err;
    }
  }

  async put(key: string, body: Readable, opts: PutOptions = {}): Promise<PutResult> {
    const spool = path.join(this.opts.spoolDir, randomUUID());
    try {
      assertValidKey(key);
      assertPutOptions(opts);
      await fsp.mkdir(this.opts.spoolDir, { recursive: true });
      // A single PUT cannot exceed MAX_SINGLE_PUT, whatever the caller allows.
      const limit = new ByteLimit({ ...opts, maxBytes: Math.min(opts.maxBytes ?? MAX_SINGLE_PUT, MAX_SINGLE_PUT) });
      await pipeline(body, limit, createWriteStream(spool, { flags: 'wx', highWaterMark: CHUNK }));
      return await this.putFile(key, spool, limit.bytes, opts.contentType);
    } catch (err) {
      body.destroy(); // already done by pipeline on its own failures; this covers the others
      throw err;
    } finally {
      await fsp.rm(spool, { force: true });
    }
  }

  async get(key: string, range?: ByteRange): Promise<GetResult> {
    const info = await this.stat(key); // also validates the key
    const served = range && servedRange(range, info.size);
    let body = await (served
      ? this.client.getPartialObject(this.bucket, key, served.start, served.end - served.start + 1)
      : this.client.getObject(this.bucket, key)
    ).catch((err: unknown) => {
      throw isNotFound(err) ? new ObjectNotFoundError(key) : err;
    });
    if (served) {
      // s3rver reads `bytes=0-0` as "0 to the end": never pass on more bytes than were asked for.
      const length = served.end - served.start + 1;
      if (Number((body as http.IncomingMessage).headers?.['content-length']) > length) body = firstBytes(body, length);
    }
    return { ...info, body, range: served };
  }

  async stat(key: string): Promise<ObjectInfo> {
    assertValidKey(key);
    const st = await this.client.statObject(this.bucket, key).catch((err: unknown) => {
      throw isNotFound(err) ? new ObjectNotFoundError(key) : err;
    });
    const contentType = st.metaData['content-type'];
    return {
      size: st.size,
      etag: st.etag,
      lastModified: st.lastModified,
      contentType: typeof contentType === 'string' ? contentType : undefined,
    };
  }

  exists(key: string): Promise<boolean> {
    return existsByStat(this, key);
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.removeObject(this.bucket, key).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertValidDeletePrefix(prefix);
    const keys: string[] = [];
    for await (const { key } of this.list(prefix)) keys.push(key);
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const results = await this.client.removeObjects(this.bucket, keys.slice(i, i + DELETE_BATCH));
      const failed = results.filter((r) => r?.Error && r.Error.Code !== 'NoSuchKey');
      if (failed.length > 0) {
        throw new ObjectStoreError(`could not delete ${failed.length} objects, first: ${JSON.stringify(failed[0]?.Error)}`);
      }
    }
    return keys.length;
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    assertValidPrefix(prefix);
    for await (const item of this.client.listObjectsV2(this.bucket, prefix, true)) {
      const { name, size, lastModified } = item as { name?: string; size?: number; lastModified?: Date };
      if (name !== undefined) yield { key: name, size: size ?? 0, lastModified };
    }
  }

  /** One PUT of a complete local file; S3 then has the object whole or not at all. */
  private async putFile(key: string, file: string, size: number, contentType = 'application/octet-stream'): Promise<PutResult> {
    const url = new URL(await this.client.presignedPutObject(this.bucket, key, PRESIGN_SECONDS));
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'PUT',
      headers: { 'content-length': size, 'content-type': contentType },
    });
    const response = new Promise<http.IncomingMessage>((resolve, reject) => {
      request.once('response', resolve).once('error', reject);
    });
    const [, res] = await Promise.all([pipeline(createReadStream(file, { highWaterMark: CHUNK }), request), response]);
    const text = await readText(res);
    if (res.statusCode !== 200) {
      const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? 'UnknownError';
      throw new ObjectStoreError(`S3 PUT ${key} failed: ${res.statusCode} ${code}`);
    }
    return { size, etag: String(res.headers.etag ?? '').replace(/"/g, '') };
  }
}

function s3Code(err: unknown): string | undefined {
  return (err as { code?: string })?.code;
}

function isNotFound(err: unknown): boolean {
  const code = s3Code(err);
  return code === 'NoSuchKey' || code === 'NotFound';
}

async function readText(res: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The first `length` bytes of `source`; stopping early destroys it (and its connection). */
function firstBytes(source: Readable, length: number): Readable {
  async function* take() {
    let left = length;
    for await (const chunk of source) {
      yield (chunk as Buffer).subarray(0, left);
      left -= (chunk as Buffer).length;
      if (left <= 0) return;
    }
  }
  return Readable.from(take(), { objectMode: false });
}
