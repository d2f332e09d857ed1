// The built console (web/dist) held in memory once asked for, each file with its brotli and gzip
// copies (written by the build, web/precompress.mts; made here for a file the build left without one),
// served by content negotiation. Every representation has its own strong ETag, so a cache or a
// conditional request never mixes encodings up. A byte range is always a range of the identity
// bytes: a request that carries a satisfiable Range gets identity, never a slice of a brotli
// stream. Conditional requests and ranges: conditional.ts.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import mime from 'mime-types';
import { negotiateEncoding, varyWithAcceptEncoding, type Coding } from './accept-encoding';
import { contentRange, isNotModified, rangeFor, unsatisfiedRange } from '../platform/http/conditional';

type Compressed = Exclude<Coding, 'identity'>;

export interface Representation {
  body: Buffer;
  etag: string;
}

export interface WebAsset {
  contentType: string;
  cacheControl: string;
  lastModified: Date;
  identity: Representation;
  encoded: Partial<Record<Compressed, Representation>>;
}

/** Text worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|manifest\+json)|image\/svg\+xml)/;
const SUFFIX: Record<Compressed, string> = { br: '.br', gzip: '.gz' };
/** Below this a compressed copy saves less than a packet. */
const MIN_COMPRESS_BYTES = 256;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const etagOf = (body: Buffer) => `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
const representation = (body: Buffer): Representation => ({ body, etag: etagOf(body) });

// At start, for a file the build did not compress: fast levels, the build's copies are the small ones.
const compressors: Record<Compressed, (b: Buffer) => Promise<Buffer>> = {
  br: (b) => brotli(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (b) => gzip(b, { level: 6 }),
};

/** An asset from bytes, its compressed copies given (the build's) or made now. */
export async function makeAsset(
  body: Buffer,
  contentType: string,
  cacheControl: string,
  lastModified: Date,
  given: Partial<Record<Compressed, Buffer>> = {},
): Promise<WebAsset> {
  const asset: WebAsset = { contentType, cacheControl, lastModified, identity: representation(body), encoded: {} };
  if (!COMPRESSIBLE.test(contentType) || body.length < MIN_COMPRESS_BYTES) return asset;
  for (const coding of ['br', 'gzip'] as const) {
    const bytes = given[coding] ?? (await compressors[coding](body));
    // A copy no smaller than the file is never worth choosing.
    if (bytes.length < body.length) asset.encoded[coding] = representation(bytes);
  }
  return asset;
}

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    // Vite's manifest is for the build's tools, not for browsers.
    if (entry.name === '.vite') continue;
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(p, base)));
    else if (entry.isFile()) out.push(path.relative(base, p));
  }
  return out;
}

async function readIfPresent(file: string): Promise<Buffer | undefined> {
  return fs.readFile(file).catch(() => undefined);
}

/** An asset read from disk on its first request, then kept (the same promise for every caller). */
export type AssetLoader = () => Promise<WebAsset>;

/**
 * Every file of the build by its URL path (`/assets/index-abc.js`), each read (with its `.br` and
 * `.gz` copies, representations of the file, not files of their own) on its first request and
 * kept from then on: an instance that serves only the API holds none of the console's ~2.7 MB
 * (measured by bench/upload-memory.ts). A file that can no longer be read is retried next time.
 */
export async function listWebAssets(webDir: string): Promise<Map<string, AssetLoader>> {
  const files = (await listFiles(webDir)).filter((f) => !/\.(br|gz)$/.test(f));
  return new Map(files.map((rel) => ['/' + rel.split(path.sep).join('/'), assetLoader(webDir, rel)]));
}

function assetLoader(webDir: string, rel: string): AssetLoader {
  let loading: Promise<WebAsset> | undefined;
  return () => {
    loading ??= readAsset(webDir, rel).catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
    return loading;
  };
}

async function readAsset(webDir: string, rel: string): Promise<WebAsset> {
  const file = path.join(webDir, rel);
  const [body, stat, br, gz] = await Promise.all([fs.readFile(file), fs.stat(file), readIfPresent(file + SUFFIX.br), readIfPresent(file + SUFFIX.gzip)]);
  // Hashed names under assets/ never change: a year. Anything else is revalidated each time.
  const cacheControl = rel.startsWith(`assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache';
  const contentType = mime.contentType(path.extname(rel)) || 'application/octet-stream';
  return makeAsset(body, contentType, cacheControl, stat.mtime, { br, gzip: gz });
}

/** Answers a GET or HEAD for an asset: 200 in the negotiated encoding, 206/416 for a range, 304. */
export function sendAsset(req: FastifyRequest, reply: FastifyReply, asset: WebAsset): FastifyReply {
  const compressible = Object.keys(asset.encoded).length > 0;
  if (compressible) reply.header('vary', varyWithAcceptEncoding(reply.getHeader('vary')));
  reply.header('cache-control', asset.cacheControl);
  reply.header('last-modified', asset.lastModified.toUTCString());
  reply.header('accept-ranges', 'bytes');

  const size = asset.identity.body.length;
  const range = req.method === 'GET' ? rangeFor(req.headers, size, { etag: asset.identity.etag, lastModified: asset.lastModified }) : ({ kind: 'full' } as const);
  const coding = range.kind === 'full' ? negotiateEncoding(req.headers['accept-encoding'], Object.keys(asset.encoded) as Compressed[]) : 'identity';
  const chosen = coding === 'identity' ? asset.identity : asset.encoded[coding]!;
  reply.header('etag', chosen.etag);
  reply.type(asset.contentType);

  if (isNotModified(req.headers, { etag: chosen.etag, lastModified: asset.lastModified })) return reply.code(304).send();
  if (range.kind === 'unsatisfiable') return reply.code(416).header('content-range', unsatisfiedRange(size)).send();
  if (range.kind === 'partial') {
    return reply.code(206).header('content-range', contentRange(range, size)).send(asset.identity.body.subarray(range.start, range.end + 1));
  }
  if (coding !== 'identity') reply.header('content-encoding', coding);
  return reply.send(chosen.body);
}
