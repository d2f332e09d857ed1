// HTTP conditional requests and byte ranges (RFC 9110 sections 8.8, 13 and 14), in one place for
// everything that serves bytes: stored files (storage/download.ts) and static sites
// (hosting/static-site.ts). Pure functions over request headers: no I/O, no framework.

export type RequestHeaders = Record<string, string | string[] | undefined>;

export interface Validators {
  /** A strong entity tag, quoted: `"abc"`. */
  etag: string;
  /** When the representation last changed (HTTP dates have whole seconds). */
  lastModified?: Date;
}

/** Inclusive byte offsets, as in Content-Range. */
export interface ByteSpan {
  start: number;
  end: number;
}

export type RangeDecision =
  | { kind: 'full' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

const FULL: RangeDecision = { kind: 'full' };
const UNSATISFIABLE: RangeDecision = { kind: 'unsatisfiable' };

function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(',') : v;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000) * 1000;

/** If-None-Match: weak comparison (W/"x" matches "x"), `*` matches any current representation. */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  const want = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === want;
  });
}

/**
 * Whether a GET/HEAD may answer 304. If-None-Match wins over If-Modified-Since (13.2.2): when
 * it is present the date is not looked at.
 */
export function isNotModified(headers: RequestHeaders, v: Validators): boolean {
  const inm = one(headers['if-none-match']);
  if (inm !== undefined) return etagMatches(inm, v.etag);
  const ims = one(headers['if-modified-since']);
  if (ims === undefined || !v.lastModified) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && seconds(v.lastModified) <= since;
}

/**
 * If-Range (13.1.5): the range applies only if the representation is unchanged. An entity tag
 * must match strongly (a weak tag never does); a date must equal Last-Modified exactly.
 */
export function ifRangeHolds(headers: RequestHeaders, v: Validators): boolean {
  const ifRange = one(headers['if-range'])?.trim();
  if (ifRange === undefined) return true;
  if (ifRange.startsWith('W/')) return false;
  if (ifRange.startsWith('"')) return ifRange === v.etag && !v.etag.startsWith('W/');
  const date = Date.parse(ifRange);
  return Number.isFinite(date) && v.lastModified !== undefined && seconds(v.lastModified) === date;
}

/**
 * Parses `Range: bytes=...` against a representation of `size` bytes. One range is served; a
 * header we don't understand, another unit, or several ranges (multipart/byteranges, which we
 * don't produce) give the whole representation, which the RFC allows (14.2: a server MAY ignore
 * Range). A syntactically valid single range that selects nothing is unsatisfiable (416).
 */
export function parseRange(header: string | undefined, size: number): RangeDecision {
  if (header === undefined) return FULL;
  const m = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return FULL;
  if (m[1] === '') {
    // Suffix: the last n bytes (all of them if n >= size); bytes=-0 selects nothing.
    const n = Number(m[2]);
    if (!Number.isSafeInteger(n) || n === 0 || size === 0) return UNSATISFIABLE;
    return { kind: 'partial', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const last = m[2] === '' ? Infinity : Number(m[2]);
  if (!Number.isSafeInteger(start)) return UNSATISFIABLE;
  if (last < start) return FULL; // invalid range-spec: ignore the header (14.1.1)
  if (start >= size) return UNSATISFIABLE;
  return { kind: 'partial', start, end: Math.min(last, size - 1) };
}

/** The range to serve for a request (Range + If-Range), for a GET of a 200 representation. */
export function rangeFor(headers: RequestHeaders, size: number, v: Validators): RangeDecision {
  const header = one(headers.range);
  if (header === undefined) return FULL;
  if (!ifRangeHolds(headers, v)) return FULL;
  return parseRange(header, size);
}

/** `bytes 100-199/1000` for a 206. */
export function contentRange(span: ByteSpan, size: number): string {
  return `bytes ${span.start}-${span.end}/${size}`;
}

/** The Content-Range of a 416: no range, the size. */
export function unsatisfiedRange(size: number): string {
  return `bytes */${size}`;
}
