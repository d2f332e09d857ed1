// Answers a GET for a static deployment from memory as far as possible: the file index is built
// once per deployment (immutable, so never invalidated), small files and their gzip/brotli forms
// are kept in a byte-bounded LRU, bigger files stream from the local disk cache.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import type { Readable } from 'node:stream';
import { mimeType, isCompressible } from './mime';
import { notFoundPage } from './pages';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const MEMORY_FILE_MAX = 1024 * 1024;
const COMPRESS_MIN = 1024;
/** Vite/webpack/Angular content-hashed names: cache for a year. */
const HASHED = /[.-][A-Za-z0-9_-]{8,}\.(?:js|mjs|css|woff2?|ttf|otf|png|jpe?g|gif|svg|webp|avif|ico|wasm|map)$/;

export interface SiteResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer | Readable | string;
}

interface Cached {
  body: Buffer;
  etag: string;
  br?: Buffer;
  gz?: Buffer;
}

class Lru {
  private readonly map = new Map<string, Cached>();
  private bytes = 0;
  constructor(private readonly max: number) {}
  get(key: string): Cached | undefined {
    const v = this.map.get(key);
    if (v) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, v: Cached): void {
    this.map.set(key, v);
    this.bytes += size(v);
    for (const [k, old] of this.map) {
      if (this.bytes <= this.max) break;
      this.map.delete(k);
      this.bytes -= size(old);
    }
  }
  /** A compressed form was added to an entry already counted. */
  grow(by: number): void {
    this.bytes += by;
  }
}
const size = (v: Cached) => v.body.length + (v.br?.length ?? 0) + (v.gz?.length ?? 0);

interface SiteIndex {
  root: string;
  files: Map<string, { size: number; mtimeMs: number }>;
}

export class StaticSites {
  private readonly indexes = new Map<string, Promise<SiteIndex>>();
  private readonly cache: Lru;

  constructor(cacheBytes = 64 * 1024 * 1024) {
    this.cache = new Lru(cacheBytes);
  }

  private index(deploymentId: string, servedRoot: string): Promise<SiteIndex> {
    let p = this.indexes.get(deploymentId);
    if (!p) {
      p = buildIndex(servedRoot);
      p.catch(() => this.indexes.delete(deploymentId));
      this.indexes.set(deploymentId, p);
    }
    return p;
  }

  forget(deploymentId: string): void {
    this.indexes.delete(deploymentId);
  }

  async serve(opts: { deploymentId: string; servedRoot: string; urlPath: string; spa: boolean; headers: Record<string, string | string[] | undefined> }): Promise<SiteResponse> {
    const idx = await this.index(opts.deploymentId, opts.servedRoot);
    let rel: string;
    try {
      rel = path.posix.normalize(decodeURIComponent(opts.urlPath)).replace(/^\/+/, '');
    } catch {
      return { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Bad request' };
    }
    // Dotfiles (.env, .git) are never served, except the standard /.well-known/.
    if (rel.split('/').some((s) => s.startsWith('.') && s !== '.well-known')) return this.notFound(opts.deploymentId, idx, opts.headers);
    const hit = lookup(idx, rel);
    if (hit) return this.file(opts.deploymentId, idx, hit, 200, opts.headers);
    const last = rel.slice(rel.lastIndexOf('/') + 1);
    if (opts.spa && !last.includes('.') && idx.files.has('index.html')) return this.file(opts.deploymentId, idx, 'index.html', 200, opts.headers);
    return this.notFound(opts.deploymentId, idx, opts.headers);
  }

  private notFound(deploymentId: string, idx: SiteIndex, headers: Record<string, string | string[] | undefined>): Promise<SiteResponse> | SiteResponse {
    if (idx.files.has('404.html')) return this.file(deploymentId, idx, '404.html', 404, headers);
    return { status: 404, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' }, body: notFoundPage() };
  }

  private async file(deploymentId: string, idx: SiteIndex, rel: string, status: number, reqHeaders: Record<string, string | string[] | undefined>): Promise<SiteResponse> {
    const meta = idx.files.get(rel)!;
    const abs = path.join(idx.root, rel);
    const headers: Record<string, string> = {
      'content-type': mimeType(rel),
      'cache-control': HASHED.test(rel) ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
    };
    if (meta.size > MEMORY_FILE_MAX) {
      // Big files: identity encoding, streamed; the etag is size + mtime (files never change).
      headers.etag = `"${meta.size.toString(16)}-${Math.floor(meta.mtimeMs).toString(16)}"`;
      if (status === 200 && fresh(reqHeaders, headers.etag)) return { status: 304, headers, body: '' };
      headers['content-length'] = String(meta.size);
      return { status, headers, body: fs.createReadStream(abs, { highWaterMark: 1 << 20 }) };
    }
    const key = `${deploymentId}\0${rel}`;
    let c = this.cache.get(key);
    if (!c) {
      const body = await fsp.readFile(abs);
      c = { body, etag: `"${crypto.createHash('sha1').update(body).digest('base64url').slice(0, 22)}"` };
      this.cache.set(key, c);
    }
    headers.etag = c.etag;
    if (status === 200 && fresh(reqHeaders, c.etag)) return { status: 304, headers, body: '' };
    if (c.body.length >= COMPRESS_MIN && isCompressible(headers['content-type'])) {
      headers.vary = 'Accept-Encoding';
      const accept = String(reqHeaders['accept-encoding'] ?? '');
      if (/\bbr\b/.test(accept)) {
        if (!c.br) {
          c.br = await brotli(c.body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6 } });
          this.cache.grow(c.br.length);
        }
        headers['content-encoding'] = 'br';
        return { status, headers, body: c.br };
      }
      if (/\bgzip\b/.test(accept)) {
        if (!c.gz) {
          c.gz = await gzip(c.body, { level: 6 });
          this.cache.grow(c.gz.length);
        }
        headers['content-encoding'] = 'gzip';
        return { status, headers, body: c.gz };
      }
    }
    return { status, headers, body: c.body };
  }
}

function fresh(reqHeaders: Record<string, string | string[] | undefined>, etag: string): boolean {
  const inm = reqHeaders['if-none-match'];
  if (!inm) return false;
  return String(inm)
    .split(',')
    .some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*');
}

function lookup(idx: SiteIndex, rel: string): string | undefined {
  if (rel === '' || rel.endsWith('/')) {
    const dirIndex = `${rel}index.html`;
    return idx.files.has(dirIndex) ? dirIndex : undefined;
  }
  if (idx.files.has(rel)) return rel;
  // Folder without the slash, and clean URLs of static exports (/about → about.html).
  if (idx.files.has(`${rel}/index.html`)) return `${rel}/index.html`;
  if (idx.files.has(`${rel}.html`)) return `${rel}.html`;
  return undefined;
}

async function buildIndex(root: string): Promise<SiteIndex> {
  const files = new Map<string, { size: number; mtimeMs: number }>();
  const walk = async (dir: string, prefix: string) => {
    for (const e of await fsp.readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) await walk(full, `${prefix}${e.name}/`);
      else if (e.isFile()) {
        const st = await fsp.stat(full);
        files.set(`${prefix}${e.name}`, { size: st.size, mtimeMs: st.mtimeMs });
      }
    }
  };
  await walk(root, '');
  return { root, files };
}
