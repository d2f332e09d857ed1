// Answers a GET for a static deployment from memory as far as possible: the file index is built
// once per deployment (immutable, so never invalidated), small files and their gzip/brotli forms
// are kept in a byte-bounded LRU with their response headers precomputed, bigger files stream from
// the local disk cache. When everything a request needs is in memory the answer is synchronous
// (no promise, no allocation beyond the lookup): that is the gateway's hot path.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import type { Readable } from 'node:stream';
import { isCompressible, siteContentType } from '../../../platform/http/mime';
import { contentRange, isNotModified, rangeFor, unsatisfiedRange } from '../../../platform/http/conditional';
import { notFoundPage } from './pages';
import { compileRules, headersFor, matchRedirects, RULE_FILES, type CompiledRules, type SiteRules } from '../deploy';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const MEMORY_FILE_MAX = 1024 * 1024;
const COMPRESS_MIN = 1024;
/** Extensions of Vite/webpack/Angular content-hashed names (`app.3f9a1c2b.js`): cached for a year. */
const HASHED_EXTENSIONS = new Set(['js', 'mjs', 'css', 'woff', 'woff2', 'ttf', 'otf', 'png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'avif', 'ico', 'wasm', 'map']);

export interface SiteResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer | Readable | string;
  /** The same headers as a flat [name, value, ...] list, content-length included (precomputed). */
  flat?: string[];
  /** Not counted as the site's traffic (the gateway's own "no site deployed yet" page). */
  uncounted?: boolean;
}

type Encoding = 'br' | 'gzip' | '';

interface Variant {
  body: Buffer;
  headers: Record<string, string>;
  flat: string[];
}

interface Cached {
  body: Buffer;
  etag: string;
  /** Headers of a 200/404 answer before encoding and length; also those of a 304. */
  base: Record<string, string>;
  compressible: boolean;
  identity: Variant;
  br?: Variant;
  gz?: Variant;
  notModified: SiteResponse;
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
    const old = this.map.get(key);
    if (old) {
      this.map.delete(key);
      this.bytes -= size(old);
    }
    this.map.set(key, v);
    this.bytes += size(v);
    for (const [k, o] of this.map) {
      if (this.bytes <= this.max) break;
      this.map.delete(k);
      this.bytes -= size(o);
    }
  }
  /** A compressed form was added to an entry already counted (if it still is). */
  grow(key: string, v: Cached, by: number): void {
    if (this.map.get(key) === v) this.bytes += by;
  }
}
const size = (v: Cached) => v.body.length + (v.br?.body.length ?? 0) + (v.gz?.body.length ?? 0);

/** What a URL path means in a deployment: a file (with its status), the 404 answer or a redirect
 * (_redirects); `extra` are the _headers rules' headers for the path. */
type Route = ({ rel: string; status: number } | { rel: undefined; status: 400 | 404 } | { rel: undefined; status: 301 | 302 | 303 | 307 | 308; location: string }) & {
  extra?: Record<string, string>;
};

interface SiteIndex {
  root: string;
  files: Map<string, { size: number; mtimeMs: number }>;
  /** URL path → route, memoised (the index never changes); bounded. */
  routes: Map<string, Route>;
  /** The deployment's _redirects and _headers (site-rules.ts), compiled once. */
  rules?: CompiledRules;
}

const ROUTES_MAX = 10_000;
/**
 * Longer paths and Accept-Encoding values are worked out each time, not kept in a Map: V8 hashes
 * a string over 16,383 characters by its length alone, so such keys of one length would all
 * collide (Node's default 16 KB header limit keeps them out; a raised limit would let them in).
 */
const MEMO_KEY_MAX = 4096;
const BAD_REQUEST: SiteResponse = { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Bad request' };

export interface ServeOptions {
  deploymentId: string;
  servedRoot: string;
  urlPath: string;
  spa: boolean;
  headers: Record<string, string | string[] | undefined>;
  /** The deployment's stored rules (site_deployments.rules), if any. */
  rules?: SiteRules | null;
  /** The request's query string with its '?' ('' for none): kept on redirects. */
  query?: string;
}

export class StaticSites {
  private readonly indexes = new Map<string, Promise<SiteIndex>>();
  private readonly built = new Map<string, SiteIndex>();
  private readonly cache: Lru;
  private readonly encodings = new Map<string, Encoding>();

  constructor(cacheBytes = 64 * 1024 * 1024) {
    this.cache = new Lru(cacheBytes);
  }

  private index(deploymentId: string, servedRoot: string, rules: SiteRules | null | undefined): Promise<SiteIndex> {
    let p = this.indexes.get(deploymentId);
    if (!p) {
      p = buildIndex(servedRoot).then((idx) => ({ ...idx, rules: compileRules(rules) }));
      p.then(
        (idx) => this.indexes.get(deploymentId) === p && this.built.set(deploymentId, idx),
        () => this.indexes.delete(deploymentId),
      );
      this.indexes.set(deploymentId, p);
    }
    return p;
  }

  forget(deploymentId: string): void {
    this.indexes.delete(deploymentId);
    this.built.delete(deploymentId);
  }

  /** Synchronous when the index and the file (in the wanted encoding) are in memory. */
  serve(opts: ServeOptions): SiteResponse | Promise<SiteResponse> {
    const idx = this.built.get(opts.deploymentId);
    if (idx) return this.answer(opts, idx);
    return this.index(opts.deploymentId, opts.servedRoot, opts.rules).then((i) => this.answer(opts, i));
  }

  private answer(opts: ServeOptions, idx: SiteIndex): SiteResponse | Promise<SiteResponse> {
    let route = idx.routes.get(opts.urlPath);
    if (!route) {
      route = idx.rules ? ruled(idx, idx.rules, opts.urlPath, opts.spa) : resolve(idx, opts.urlPath, opts.spa);
      if (idx.routes.size >= ROUTES_MAX) idx.routes.clear();
      if (opts.urlPath.length <= MEMO_KEY_MAX) idx.routes.set(opts.urlPath, route);
    }
    if (route.rel !== undefined) {
      const answer = this.file(opts.deploymentId, idx, route.rel, route.status, opts.headers);
      const extra = route.extra;
      if (!extra) return answer;
      return answer instanceof Promise ? answer.then((a) => withHeaders(a, extra)) : withHeaders(answer, extra);
    }
    if (route.status === 400) return BAD_REQUEST;
    if ('location' in route) {
      const location = opts.query && !route.location.includes('?') ? route.location + opts.query : route.location;
      return withHeaders({ status: route.status, headers: { location, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' }, body: `Redirecting to ${location}` }, route.extra);
    }
    return withHeaders({ status: 404, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' }, body: notFoundPage() }, route.extra);
  }

  private file(deploymentId: string, idx: SiteIndex, rel: string, status: number, reqHeaders: ServeOptions['headers']): SiteResponse | Promise<SiteResponse> {
    const meta = idx.files.get(rel)!;
    if (meta.size > MEMORY_FILE_MAX) {
      // Big files: identity encoding, streamed; the etag is size + mtime (files never change).
      const headers = baseHeaders(rel, `"${meta.size.toString(16)}-${Math.floor(meta.mtimeMs).toString(16)}"`);
      if (status === 200 && isNotModified(reqHeaders, { etag: headers.etag })) return { status: 304, headers, body: '' };
      const abs = path.join(idx.root, rel);
      if (status === 200 && reqHeaders.range !== undefined) {
        const r = rangeFor(reqHeaders, meta.size, { etag: headers.etag });
        if (r.kind === 'unsatisfiable') return unsatisfiable(meta.size);
        if (r.kind === 'partial') {
          headers['content-range'] = contentRange(r, meta.size);
          headers['content-length'] = String(r.end - r.start + 1);
          return { status: 206, headers, body: fs.createReadStream(abs, { start: r.start, end: r.end, highWaterMark: 1 << 20 }) };
        }
      }
      headers['content-length'] = String(meta.size);
      return { status, headers, body: fs.createReadStream(abs, { highWaterMark: 1 << 20 }) };
    }
    const key = `${deploymentId}\0${rel}`;
    const c = this.cache.get(key);
    if (!c) return this.load(key, path.join(idx.root, rel), rel).then((loaded) => this.pick(key, loaded, status, reqHeaders));
    return this.pick(key, c, status, reqHeaders);
  }

  private async load(key: string, abs: string, rel: string): Promise<Cached> {
    const body = await fsp.readFile(abs);
    const etag = `"${crypto.createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
    const base = baseHeaders(rel, etag);
    const compressible = body.length >= COMPRESS_MIN && isCompressible(base['content-type']);
    const c: Cached = {
      body,
      etag,
      base,
      compressible,
      identity: variant(base, body, compressible, ''),
      notModified: { status: 304, headers: base, body: '', flat: flatten(base) },
    };
    this.cache.set(key, c);
    return c;
  }

  private pick(key: string, c: Cached, status: number, reqHeaders: ServeOptions['headers']): SiteResponse | Promise<SiteResponse> {
    if (status === 200 && reqHeaders['if-none-match'] !== undefined && isNotModified(reqHeaders, c)) return c.notModified;
    if (status === 200 && reqHeaders.range !== undefined) {
      const r = rangeFor(reqHeaders, c.body.length, c);
      if (r.kind === 'unsatisfiable') return unsatisfiable(c.body.length);
      // A range is of the identity body (no Content-Encoding), so byte offsets are the file's.
      if (r.kind === 'partial') {
        const headers: Record<string, string> = { ...c.identity.headers, 'content-range': contentRange(r, c.body.length), 'content-length': String(r.end - r.start + 1) };
        return { status: 206, headers, body: c.body.subarray(r.start, r.end + 1) };
      }
    }
    const enc = c.compressible ? this.encodingOf(reqHeaders['accept-encoding']) : '';
    const v = enc === 'br' ? c.br : enc === 'gzip' ? c.gz : c.identity;
    if (v) return { status, headers: v.headers, body: v.body, flat: v.flat };
    return this.compress(key, c, enc as 'br' | 'gzip').then((made) => ({ status, headers: made.headers, body: made.body, flat: made.flat }));
  }

  private async compress(key: string, c: Cached, enc: 'br' | 'gzip'): Promise<Variant> {
    const body = enc === 'br' ? await brotli(c.body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6 } }) : await gzip(c.body, { level: 6 });
    const existing = enc === 'br' ? c.br : c.gz;
    if (existing) return existing; // a concurrent request made it first
    const v = variant(c.base, body, true, enc);
    if (enc === 'br') c.br = v;
    else c.gz = v;
    this.cache.grow(key, c, body.length);
    return v;
  }

  private encodingOf(accept: string | string[] | undefined): Encoding {
    if (accept === undefined) return '';
    const s = String(accept);
    if (s.length > MEMO_KEY_MAX) return /\bbr\b/.test(s) ? 'br' : /\bgzip\b/.test(s) ? 'gzip' : '';
    let e = this.encodings.get(s);
    if (e === undefined) {
      e = /\bbr\b/.test(s) ? 'br' : /\bgzip\b/.test(s) ? 'gzip' : '';
      if (this.encodings.size >= 256) this.encodings.clear();
      this.encodings.set(s, e);
    }
    return e;
  }
}

function baseHeaders(rel: string, etag: string): Record<string, string> {
  return {
    'content-type': siteContentType(rel),
    'accept-ranges': 'bytes',
    'cache-control': isHashed(rel) ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
    etag,
  };
}

/**
 * A name ending in `.` or `-`, 8 or more of [A-Za-z0-9_-], then a known extension. A loop from
 * the extension back: the regular expression it replaces (/[.-][A-Za-z0-9_-]{8,}\.(?:js|…)$/)
 * started again at every '-' of a name, quadratic in it, and ran for every request of a big file.
 */
export function isHashed(rel: string): boolean {
  const dot = rel.lastIndexOf('.');
  if (dot < 0 || !HASHED_EXTENSIONS.has(rel.slice(dot + 1))) return false;
  let run = 0;
  for (let i = dot - 1; i >= 0; i--) {
    const c = rel.charCodeAt(i);
    if (c === 0x2e) return run >= 8;
    if (c === 0x2d && run >= 8) return true;
    const word = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d;
    if (!word) return false;
    run += 1;
  }
  return false;
}

function unsatisfiable(size: number): SiteResponse {
  return { status: 416, headers: { 'content-range': unsatisfiedRange(size), 'accept-ranges': 'bytes', 'content-type': 'text/plain; charset=utf-8' }, body: 'Range not satisfiable' };
}

function variant(base: Record<string, string>, body: Buffer, compressible: boolean, enc: Encoding): Variant {
  const headers: Record<string, string> = { ...base };
  if (compressible) headers.vary = 'Accept-Encoding';
  if (enc) headers['content-encoding'] = enc;
  headers['content-length'] = String(body.length);
  return { body, headers, flat: flatten(headers) };
}

function flatten(headers: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(headers)) out.push(k, v);
  return out;
}

/** A site's own headers on top of the platform's (replacing those of the same name). */
function withHeaders(answer: SiteResponse, extra: Record<string, string> | undefined): SiteResponse {
  if (!extra) return answer;
  const headers = { ...answer.headers, ...extra };
  return { ...answer, headers, flat: answer.flat ? flatten(headers) : undefined };
}

/** resolve() under the deployment's _redirects (first match wins; a file shadows unforced rules) and _headers. */
function ruled(idx: SiteIndex, rules: CompiledRules, urlPath: string, spa: boolean): Route {
  const extra = headersFor(rules, urlPath);
  for (const { rule, target } of matchRedirects(rules, urlPath)) {
    if (!rule.force && shadowed(idx, urlPath)) break;
    // The path's values would have changed the host the rule's URL names (redirect-target.ts).
    if (target === undefined) return { rel: undefined, status: 400, extra };
    if (rule.status !== 200 && rule.status !== 404) return { rel: undefined, status: rule.status, location: target, extra };
    // A rewrite: the target's file in this deployment's index, never anything else.
    const q = target.indexOf('?');
    const r = resolve(idx, q < 0 ? target : target.slice(0, q), false);
    if (rule.status === 404 && r.rel !== undefined) return { rel: r.rel, status: 404, extra };
    return { ...r, extra };
  }
  return { ...resolve(idx, urlPath, spa), extra };
}

/** A file answers this path itself (not the SPA fallback, not a 404 page). */
function shadowed(idx: SiteIndex, urlPath: string): boolean {
  const r = resolve(idx, urlPath, false);
  return r.rel !== undefined && r.status === 200;
}

function resolve(idx: SiteIndex, urlPath: string, spa: boolean): Route {
  let rel: string;
  try {
    rel = path.posix.normalize(decodeURIComponent(urlPath)).replace(/^\/+/, '');
  } catch {
    return { rel: undefined, status: 400 };
  }
  const notFound = (): Route => (idx.files.has('404.html') ? { rel: '404.html', status: 404 } : { rel: undefined, status: 404 });
  // Dotfiles (.env, .git) are never served, except the standard /.well-known/.
  if (rel.split('/').some((s) => s.startsWith('.') && s !== '.well-known')) return notFound();
  // The rule files are read at deploy time, never served.
  if (RULE_FILES.has(rel)) return notFound();
  const hit = lookup(idx, rel);
  if (hit) return { rel: hit, status: 200 };
  const last = rel.slice(rel.lastIndexOf('/') + 1);
  if (spa && !last.includes('.') && idx.files.has('index.html')) return { rel: 'index.html', status: 200 };
  return notFound();
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
  return { root, files, routes: new Map() };
}
