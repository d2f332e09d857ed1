// A static deployment's `_redirects` and `_headers` files (Netlify's formats), parsed once at
// deploy time (a bad line fails the deploy, naming the file and the line), stored with the
// deployment (site_deployments.rules) and compiled once per deployment by static-site.ts, which
// both doors (the front door and the Fastify gateway hook) go through.
//
// _redirects, one rule a line: `FROM TO [STATUS[!]]`
//   - FROM is a path (`/old`, `/blog/:year/:slug`, `/app/*`); `*` only as the last segment, where
//     it matches the rest of the path (also nothing: `/app/*` matches `/app`). Matched against the
//     request's path (still percent-encoded, case-insensitive, trailing slash ignored); the query
//     string plays no part (query and country/language conditions are refused as unsupported).
//   - TO is a path in the site (not `//…` or `/\…`) or, for a redirect only, an http(s) URL;
//     `:name` and `:splat` are replaced by what the FROM pattern matched. The request's query
//     string is kept unless TO has one. What a request fills in cannot take a visitor elsewhere
//     (redirect-target.ts): a path TO's leading run of slashes, backslashes and blanks, raw or
//     %-encoded, is one '/' (`/old/*  /:splat` answers `/old//evil.example` with `/evil.example`),
//     and a value in an http(s) TO's host must be letters, digits, '-' and '.', else 400.
//   - STATUS: 301 (default), 302, 303, 307, 308 (redirects), 200 (rewrite: the TO path's file is
//     served at the FROM URL), 404 (the TO path's file served as a 404). A rewrite never leaves the
//     site: a 200/404 rule to an external URL (proxying) is refused, saying so, and a rewrite's TO
//     is looked up in the deployment's own file index only.
//   - A rule applies only when no file answers the request path (a file "shadows" it) unless its
//     status ends with `!` (forced). The first matching rule wins; a rewrite is not re-matched.
// _headers: a path pattern on its own line (`/*`, `/assets/*`, `/:lang/about`; `*` anywhere
//   matches any characters), then indented `Name: value` lines. Every matching block applies, in
//   file order; a later block's value for a header replaces an earlier one's.
//   Refused, because the platform owns them: hop-by-hop headers (Connection, Keep-Alive,
//   Transfer-Encoding, TE, Trailer, Upgrade, Proxy-*), the framing and validators the gateway
//   computes (Content-Length, Content-Encoding, Content-Range, Accept-Ranges, ETag, Last-Modified,
//   Vary, Date, Server, Location: use _redirects), X-Content-Type-Options (nosniff stays), and
//   Set-Cookie: a site lives on a subdomain of the platform's domain, and a cookie it sets for
//   that parent domain would reach the console and the API (session fixation).
// Limits: each file at most MAX_RULES_FILE_BYTES, at most MAX_REDIRECTS redirect rules and
// MAX_HEADER_RULES header blocks, a value at most MAX_HEADER_VALUE bytes and a block's headers
// at most MAX_HEADER_BLOCK bytes; a path pattern at most MAX_PATTERN_BYTES, MAX_PATTERN_SEGMENTS
// segments and MAX_WILDCARDS `*` and `:placeholders`, a target at most MAX_TARGET_BYTES and
// MAX_WILDCARDS placeholders, and at most MAX_WHOLE_PATH_PATTERNS _headers paths with a part
// between two `*` (`/*/:id/*`, `/*.min.*`: matching those reads the whole request path, where the
// others compare their own few characters). The two files themselves are never served.
// Serving: patterns are matched by path-pattern.ts (no RegExp from a site's text, linear in the
// path) and targets filled in by redirect-target.ts (a target in the site stays in it). Stored
// rules are judged again when compiled (an archive's or an older version's): a rule these checks
// refuse is left out.

import fsp from 'node:fs/promises';
import path from 'node:path';
import { comparable, compilePath, matchPath, MAX_SCAN_SEGMENTS, readsWholePath, testPath, type PathPattern } from './path-pattern';
import { compileTarget, fillTarget, targetNames, type TargetTemplate } from './redirect-target';
import { ZipRefusedError } from './zip-extract';
import type { HeaderRule, RedirectRule, RedirectStatus, SiteRules } from '../hosting.tables';
import { humanBytes } from '../../../platform/human-bytes';

export const REDIRECTS_FILE = '_redirects';
export const HEADERS_FILE = '_headers';
export const RULE_FILES = new Set([REDIRECTS_FILE, HEADERS_FILE]);

export const MAX_RULES_FILE_BYTES = 256 * 1024;
export const MAX_REDIRECTS = 1000;
export const MAX_HEADER_RULES = 500;
export const MAX_HEADER_VALUE = 4096;
export const MAX_HEADER_BLOCK = 8192;
/** Real paths are far shorter; Cloudflare Pages caps a whole redirect line at 1,000 characters. */
export const MAX_PATTERN_BYTES = 1024;
export const MAX_PATTERN_SEGMENTS = MAX_SCAN_SEGMENTS;
/** `*` and `:placeholders` in a pattern, placeholders used in a target (`/blog/:y/:m/:d/:slug` has 4). */
export const MAX_WILDCARDS = 16;
export const MAX_TARGET_BYTES = 2048;
/** Each reads a 16 KB path (Node's header limit) in about 0.25 ms at worst (shift-and over 2-byte segments, measured): 4 ms for all. */
export const MAX_WHOLE_PATH_PATTERNS = 16;

// The rules' stored shape is the table's (hosting.tables.ts: site_deployments.rules).
export type { HeaderRule, RedirectRule, RedirectStatus, SiteRules };
const STATUSES = new Set<number>([301, 302, 303, 307, 308, 200, 404]);

/** A rules file is refused: the message names the file and the line and is safe to show. */
export class RulesError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    reason: string,
  ) {
    super(line > 0 ? `${file} line ${line}: ${reason}` : `${file}: ${reason}`);
    this.name = 'RulesError';
  }
}

const PLATFORM_HEADERS = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authenticate', 'proxy-authorization',
  'content-length', 'content-encoding', 'content-range', 'accept-ranges', 'etag', 'last-modified', 'vary', 'date', 'server', 'location',
  'x-content-type-options', 'set-cookie', 'status',
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;
const PLACEHOLDER = /:([A-Za-z_][A-Za-z0-9_]*)/g;
const PLACEHOLDER_SEGMENT = /^:[A-Za-z_][A-Za-z0-9_]*$/;

function checkSize(file: string, text: string): void {
  if (Buffer.byteLength(text) > MAX_RULES_FILE_BYTES) throw new RulesError(file, 0, `the file is larger than ${humanBytes(MAX_RULES_FILE_BYTES)}.`);
}

/** Placeholders a FROM pattern defines (`splat` for a trailing `*`), or a reason it is refused. */
function patternNames(pattern: string, splatAnywhere: boolean): Set<string> | string {
  if (!pattern.startsWith('/')) return /^[a-z]+:\/\//i.test(pattern) ? 'rules for other domains are not supported: the path must start with /.' : 'the path must start with /.';
  if (pattern.includes('?')) return 'query string matching is not supported: give the path alone.';
  if (CONTROL.test(pattern)) return 'the path contains a control character.';
  if (Buffer.byteLength(pattern) > MAX_PATTERN_BYTES) return `the path is longer than ${MAX_PATTERN_BYTES} bytes.`;
  const names = new Set<string>();
  const segments = pattern.split('/');
  if (segments.length - 1 > MAX_PATTERN_SEGMENTS) return `the path has more than ${MAX_PATTERN_SEGMENTS} segments.`;
  let wildcards = 0;
  let badSplat = false;
  segments.forEach((s, i) => {
    if (s.startsWith(':')) names.add(s.slice(1));
    if (PLACEHOLDER_SEGMENT.test(s)) wildcards += 1;
    if (s.includes('*')) {
      names.add('splat');
      wildcards += s.split('*').length - 1;
      if (!splatAnywhere && (s !== '*' || i !== segments.length - 1)) badSplat = true;
    }
  });
  if (badSplat) return 'a splat (*) is supported only as the whole last segment (/path/*).';
  if (wildcards > MAX_WILDCARDS) return `the path has more than ${MAX_WILDCARDS} wildcards (* and :placeholders).`;
  return names;
}

/** Why a rule's target is refused, or undefined. */
function targetProblem(to: string, status: RedirectStatus, names: Set<string>): string | undefined {
  if (CONTROL.test(to)) return 'the target contains a control character.';
  if (Buffer.byteLength(to) > MAX_TARGET_BYTES) return `the target is longer than ${MAX_TARGET_BYTES} bytes.`;
  const external = /^https?:\/\//i.test(to);
  const isPath = to.startsWith('/') && !to.startsWith('//') && !to.startsWith('/\\');
  if (!external && !isPath) return 'the target must be a path starting with / or, for a redirect, an http(s):// URL.';
  if (external && (status === 200 || status === 404)) {
    return `a ${status} rewrite to another site (proxying to ${to}) is not supported: rewrites stay inside the site. Use a 301 or 302 redirect to send visitors there.`;
  }
  for (const m of to.matchAll(PLACEHOLDER)) {
    if (!names.has(m[1])) return `the target uses :${m[1]}, which the path does not define.`;
  }
  if (targetNames(compileTarget(to)).length > MAX_WILDCARDS) return `the target uses more than ${MAX_WILDCARDS} placeholders.`;
  return undefined;
}

/** Why a header line is refused, or undefined. `name` is lower-case. */
function headerProblem(name: string, value: string): string | undefined {
  if (!TOKEN.test(name)) return `${JSON.stringify(name)} is not a valid header name.`;
  if (PLATFORM_HEADERS.has(name) || name.startsWith('proxy-')) {
    const why = name === 'set-cookie' ? 'cookies set by a static file could reach the platform\'s own domain' : name === 'location' ? 'use _redirects for redirects' : 'the platform sets it';
    return `the ${name} header cannot be set here (${why}).`;
  }
  if (CONTROL.test(value)) return 'the value contains a control character.';
  if (Buffer.byteLength(value) > MAX_HEADER_VALUE) return `the value is longer than ${MAX_HEADER_VALUE} bytes.`;
  return undefined;
}

export function parseRedirects(text: string, file = REDIRECTS_FILE): RedirectRule[] {
  checkSize(file, text);
  const rules: RedirectRule[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    const s = raw.trim();
    if (s === '' || s.startsWith('#')) return;
    const tokens = s.split(/\s+/);
    if (tokens.length < 2) throw new RulesError(file, line, 'a rule needs a path and a target (FROM TO [STATUS]).');
    const [from, to, ...rest] = tokens;
    const names = patternNames(from, false);
    if (typeof names === 'string') throw new RulesError(file, line, names);
    let status: RedirectStatus = 301;
    let force = false;
    let statusSeen = false;
    for (const t of rest) {
      if (t.startsWith('#')) break; // a trailing comment
      const m = /^(\d{3})(!?)$/.exec(t);
      if (m && !statusSeen) {
        const n = Number(m[1]);
        if (!STATUSES.has(n)) throw new RulesError(file, line, `status ${n} is not supported (use 301, 302, 303, 307, 308, 200 or 404).`);
        status = n as RedirectStatus;
        force = m[2] === '!';
        statusSeen = true;
        continue;
      }
      if (t.includes('=')) throw new RulesError(file, line, `conditions (${t}) are not supported: query, country, language and role matching are not available.`);
      throw new RulesError(file, line, `unexpected ${JSON.stringify(t)} (expected FROM TO [STATUS]).`);
    }
    const problem = targetProblem(to, status, names);
    if (problem) throw new RulesError(file, line, problem);
    if (rules.length >= MAX_REDIRECTS) throw new RulesError(file, line, `more than ${MAX_REDIRECTS} rules.`);
    rules.push({ from, to, status, force });
  });
  return rules;
}

export function parseHeaders(text: string, file = HEADERS_FILE): HeaderRule[] {
  checkSize(file, text);
  const rules: HeaderRule[] = [];
  let current: (HeaderRule & { bytes: number }) | undefined;
  let wholePath = 0;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    const s = raw.trim();
    if (s === '' || s.startsWith('#')) return;
    if (!/^\s/.test(raw)) {
      const names = patternNames(s, true);
      if (typeof names === 'string') throw new RulesError(file, line, names);
      if (/\s/.test(s)) throw new RulesError(file, line, 'a path line holds the path alone; headers go on the indented lines below it.');
      if (rules.length >= MAX_HEADER_RULES) throw new RulesError(file, line, `more than ${MAX_HEADER_RULES} path blocks.`);
      if (readsWholePath(compilePath(s)) && ++wholePath > MAX_WHOLE_PATH_PATTERNS) {
        throw new RulesError(file, line, `more than ${MAX_WHOLE_PATH_PATTERNS} paths with a part between two * (each is matched against the whole request path): use a prefix such as /assets/*, or one * per path.`);
      }
      current = { path: s, headers: [], bytes: 0 };
      rules.push(current);
      return;
    }
    if (!current) throw new RulesError(file, line, 'a header must follow a path line (e.g. /*).');
    const colon = s.indexOf(':');
    if (colon <= 0) throw new RulesError(file, line, 'expected "Name: value".');
    const name = s.slice(0, colon).trim().toLowerCase();
    const value = s.slice(colon + 1).trim();
    const problem = headerProblem(name, value);
    if (problem) throw new RulesError(file, line, problem);
    current.bytes += name.length + Buffer.byteLength(value) + 4;
    if (current.bytes > MAX_HEADER_BLOCK) throw new RulesError(file, line, `the headers of ${current.path} add up to more than ${MAX_HEADER_BLOCK} bytes.`);
    current.headers.push([name, value]);
  });
  return rules.map(({ path, headers }) => ({ path, headers }));
}

// ---- applying them (static-site.ts) ----------------------------------------------------------

interface CompiledRedirect extends RedirectRule {
  pattern: PathPattern;
  target: TargetTemplate;
}
interface CompiledHeaders {
  pattern: PathPattern;
  headers: [string, string][];
}
export interface CompiledRules {
  redirects: CompiledRedirect[];
  headers: CompiledHeaders[];
}

const isString = (v: unknown): v is string => typeof v === 'string';

/** A stored redirect rule these checks accept (stored rules may come from an archive). */
function storedRedirect(r: RedirectRule): boolean {
  if (!r || !isString(r.from) || !isString(r.to) || !STATUSES.has(r.status)) return false;
  const names = patternNames(r.from, false);
  return typeof names !== 'string' && targetProblem(r.to, r.status, names) === undefined;
}

function storedHeaders(h: HeaderRule): boolean {
  if (!h || !isString(h.path) || /\s/.test(h.path) || typeof patternNames(h.path, true) === 'string' || !Array.isArray(h.headers)) return false;
  return h.headers.every((pair) => Array.isArray(pair) && isString(pair[0]) && isString(pair[1]) && headerProblem(pair[0], pair[1]) === undefined);
}

export function compileRules(rules: SiteRules | null | undefined): CompiledRules | undefined {
  const redirects = (Array.isArray(rules?.redirects) ? rules.redirects.slice(0, MAX_REDIRECTS) : []).filter(storedRedirect);
  const headers = (Array.isArray(rules?.headers) ? rules.headers.slice(0, MAX_HEADER_RULES) : []).filter(storedHeaders);
  if (redirects.length === 0 && headers.length === 0) return undefined;
  let wholePath = 0;
  return {
    redirects: redirects.map((r) => ({ from: r.from, to: r.to, status: r.status, force: r.force === true, pattern: compilePath(r.from), target: compileTarget(r.to) })),
    headers: headers.map((h) => ({ pattern: compilePath(h.path), headers: h.headers })).filter((h) => !readsWholePath(h.pattern) || ++wholePath <= MAX_WHOLE_PATH_PATTERNS),
  };
}

export interface RedirectMatch {
  rule: RedirectRule;
  /** TO with the placeholders filled in; undefined when the values would take it off the host TO names (answer 400). */
  target: string | undefined;
}

/** The rules matching `urlPath`, in order (the caller decides shadowing). */
export function* matchRedirects(rules: CompiledRules, urlPath: string): Generator<RedirectMatch> {
  const s = comparable(urlPath);
  for (const r of rules.redirects) {
    const values = matchPath(r.pattern, urlPath, s);
    if (!values) continue;
    const byName = new Map(r.pattern.names.map((n, i) => [n, values[i] ?? '']));
    yield { rule: r, target: fillTarget(r.target, byName) };
  }
}

/** The custom headers for a request path (lower-case names), or undefined when none match. */
export function headersFor(rules: CompiledRules | undefined, urlPath: string): Record<string, string> | undefined {
  if (!rules || rules.headers.length === 0) return undefined;
  const s = comparable(urlPath);
  let out: Record<string, string> | undefined;
  for (const h of rules.headers) {
    if (!testPath(h.pattern, s)) continue;
    out ??= {};
    for (const [k, v] of h.headers) out[k] = v;
  }
  return out;
}

// ---- deploy time ------------------------------------------------------------------------------

/**
 * The rules of a served folder (its top-level _redirects and _headers), or null when it has none.
 * A bad line refuses the deployment (ZipRefusedError, naming the file and the line).
 */
export async function loadRules(servedDir: string): Promise<SiteRules | null> {
  const read = async (name: string): Promise<string | undefined> => {
    const file = path.join(servedDir, name);
    const st = await fsp.lstat(file).catch(() => undefined);
    if (!st || !st.isFile()) return undefined;
    if (st.size > MAX_RULES_FILE_BYTES) throw new ZipRefusedError(`${name}: the file is larger than ${humanBytes(MAX_RULES_FILE_BYTES)}.`);
    return fsp.readFile(file, 'utf8');
  };
  try {
    const [r, h] = await Promise.all([read(REDIRECTS_FILE), read(HEADERS_FILE)]);
    if (r === undefined && h === undefined) return null;
    const rules: SiteRules = { redirects: r === undefined ? [] : parseRedirects(r), headers: h === undefined ? [] : parseHeaders(h) };
    return rules.redirects.length || rules.headers.length ? rules : null;
  } catch (err) {
    if (err instanceof RulesError) throw new ZipRefusedError(err.message);
    throw err;
  }
}
