// The path patterns of a site's _redirects and _headers (`/blog/:slug`, `/assets/*`, `/*.css`),
// compiled once per deployment and matched without backtracking: no RegExp is ever built from a
// site's text (a 47-byte `/*a*a*a*a*a*a*b` once took seconds per request with one).
//
// What a pattern means (the same as the regular expressions this replaces, case-insensitively):
//   - `:name` as a whole segment: one segment, at least one character, no '/'.
//   - `*` as the whole last segment: the rest of the path, also nothing (`/app/*` matches `/app`).
//   - any other `*`: any characters, '/' included (`/*.css` matches `/a/b.css`).
//   - everything else literally. Trailing slashes are ignored on both sides.
// How it is matched, in time linear in the path for a given pattern:
//   - the pattern is cut at its inner `*` into chunks; a placeholder's extent is forced (it ends at
//     the next '/', since a '/' always follows it), so a chunk matches at a given place in one way;
//   - the first chunk is matched forward from the start, the last one backward from the end;
//   - each chunk between two `*` takes its leftmost-ending match after the previous one (greedy
//     is exact here: a chunk matched further left never leaves less room for the next ones). A
//     chunk without placeholders is found by Knuth-Morris-Pratt (not indexOf: V8's search of a
//     long needle is quadratic at worst, measured 1.7 ms for a 501-character one in 16 KB), one
//     with placeholders by a bit-parallel scan over the path's segments (shift-and: one pass,
//     one bit per segment of the chunk).
// Patterns with such middle chunks read the whole path; site-rules.ts caps how many a file has.
// `matcherSteps` counts the characters and segments the matcher looked at (the tests read it).

/** A whole-segment `:name`: one segment of at least one character. */
const PARAM = null;
type Part = string | typeof PARAM;
const PLACEHOLDER_SEGMENT = /^:[A-Za-z_][A-Za-z0-9_]*$/;

/** Segments between two `*` that hold a placeholder, ready for the segment scan. */
interface SegmentScan {
  /** Suffix of the segment where the chunk starts (after a `*`). */
  first: string;
  /** Prefix of the segment where the chunk ends (before a `*`). */
  last: string;
  /** Bit of the last token. */
  lastBit: number;
  /** Bits of the placeholder tokens (any non-empty segment). */
  anyBits: number;
  /** Literal whole segments → their bits. */
  exact: Map<string, number>;
}

interface Chunk {
  parts: Part[];
  /** The chunk as one string when it holds no placeholder. */
  literal?: string;
  /** A middle chunk's KMP failure table (literal chunks of two characters or more). */
  fail?: Int32Array;
  scan?: SegmentScan;
}

export interface PathPattern {
  /** The pattern without its trailing `/*`, cut at its inner `*` (so chunks.length - 1 of them). */
  chunks: Chunk[];
  /** The same followed by `/*` (for `tail`: the path goes on after a '/'). */
  open?: Chunk[];
  /** Ends in a whole `/*` segment. */
  tail: boolean;
  /** Placeholder names in order, then `splat` for the tail (the values matchPath returns). */
  names: string[];
}

/** Segments a pattern may have: the segment scan keeps one bit per segment in a 32-bit number. */
export const MAX_SCAN_SEGMENTS = 32;

export const matcherSteps = { count: 0 };

/** Trailing slashes do not matter (except for "/" itself). A loop: /\/+$/ is quadratic on a long run of '/'. */
export function trimSlash(p: string): string {
  let end = p.length;
  while (end > 1 && p.charCodeAt(end - 1) === 0x2f) end--;
  return end === p.length ? p : p.slice(0, end);
}

/**
 * Case folding that keeps every character where it was (captures are cut from the original path
 * by position): toLowerCase, unless it changed the length (U+0130), then ASCII letters only.
 */
export function fold(s: string): string {
  const lower = s.toLowerCase();
  return lower.length === s.length ? lower : s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

export function compilePath(pattern: string): PathPattern {
  const segments = trimSlash(pattern).split('/');
  const names: string[] = [];
  // The pattern as parts, with '*' (STAR) between chunks; a lone "/" is the root.
  const stream: (Part | '*')[] = [];
  let tail = false;
  for (let i = 1; i < segments.length; i++) {
    const s = segments[i];
    if (s === '*' && i === segments.length - 1) {
      tail = true;
    } else if (PLACEHOLDER_SEGMENT.test(s)) {
      names.push(s.slice(1));
      stream.push('/', PARAM);
    } else {
      stream.push('/');
      s.split('*').forEach((piece, k) => {
        if (k > 0) stream.push('*');
        if (piece) stream.push(fold(piece));
      });
    }
  }
  if (stream.length === 0 && !tail) stream.push('/');
  if (tail) names.push('splat');
  const chunksOf = (items: (Part | '*')[]): Chunk[] => {
    const out: Part[][] = [[]];
    for (const item of items) {
      if (item === '*') out.push([]);
      else {
        const cur = out[out.length - 1];
        const prev = cur[cur.length - 1];
        if (item !== PARAM && typeof prev === 'string') cur[cur.length - 1] = prev + item;
        else cur.push(item);
      }
    }
    // `**` is `*`: empty chunks between two stars say nothing.
    const kept = out.filter((parts, i) => i === 0 || i === out.length - 1 || parts.length > 0);
    return kept.map((parts, i) => chunk(parts, i > 0 && i < kept.length - 1));
  };
  return { chunks: chunksOf(stream), open: tail ? chunksOf([...stream, '/', '*']) : undefined, tail, names };
}

function chunk(parts: Part[], middle: boolean): Chunk {
  if (!parts.includes(PARAM)) {
    const literal = parts.join('');
    return middle && literal.length > 1 ? { parts, literal, fail: failures(literal) } : { parts, literal };
  }
  return middle ? { parts, scan: segmentScan(parts) } : { parts };
}

/** Whether matching may read the whole path (a chunk between two `*`). */
export function readsWholePath(p: PathPattern): boolean {
  return p.chunks.length > 2 || (p.open !== undefined && p.open.length > 2);
}

/** KMP: fail[i] is the length of the longest proper prefix of lit[0..i] that is also its suffix. */
function failures(lit: string): Int32Array {
  const fail = new Int32Array(lit.length);
  let k = 0;
  for (let i = 1; i < lit.length; i++) {
    while (k > 0 && lit.charCodeAt(i) !== lit.charCodeAt(k)) k = fail[k - 1];
    if (lit.charCodeAt(i) === lit.charCodeAt(k)) k++;
    fail[i] = k;
  }
  return fail;
}

/** `ab/cd/:p/ef` between two stars → tokens [suffix "ab", "cd", any, prefix "ef"]. */
function segmentScan(parts: Part[]): SegmentScan {
  // One token per segment; a placeholder is the whole segment begun by the '/' before it.
  const tokens: Part[] = [''];
  for (const p of parts) {
    if (p === PARAM) {
      tokens[tokens.length - 1] = PARAM;
      continue;
    }
    const pieces = p.split('/');
    if (pieces[0]) tokens[tokens.length - 1] = `${tokens[tokens.length - 1] as string}${pieces[0]}`;
    tokens.push(...pieces.slice(1));
  }
  if (tokens.length > MAX_SCAN_SEGMENTS) throw new Error(`a pattern chunk has more than ${MAX_SCAN_SEGMENTS} segments`);
  const exact = new Map<string, number>();
  let anyBits = 0;
  for (let j = 1; j < tokens.length - 1; j++) {
    const t = tokens[j];
    if (t === PARAM) anyBits |= 1 << j;
    else exact.set(t, (exact.get(t) ?? 0) | (1 << j));
  }
  return { first: tokens[0] as string, last: tokens[tokens.length - 1] as string, lastBit: 1 << (tokens.length - 1), anyBits, exact };
}

/** What patterns are matched against: the path case-folded, trailing slashes trimmed (once per request). */
export function comparable(path: string): string {
  return trimSlash(fold(path));
}

/**
 * The placeholder values (in `names` order) when a pattern without an inner `*` (a _redirects
 * FROM) matches the path, else undefined. `s` is comparable(path); the values are cut from
 * `path` itself, at the same places.
 */
export function matchPath(p: PathPattern, path: string, s: string): string[] | undefined {
  if (p.chunks.length !== 1) throw new Error('matchPath: the pattern has an inner *');
  const caps: number[] | undefined = p.names.length > 0 ? [] : undefined;
  const end = forward(p.chunks[0].parts, s, 0, caps);
  if (!ends(p, s, end)) return undefined;
  if (!caps) return NO_VALUES;
  const values: string[] = [];
  for (let i = 0; i < caps.length; i += 2) values.push(path.slice(caps[i], caps[i + 1]));
  if (p.tail) values.push(end === s.length ? '' : path.slice(end + 1, s.length));
  return values;
}
const NO_VALUES: string[] = [];

/** Whether the pattern matches; `s` is comparable(path). */
export function testPath(p: PathPattern, s: string): boolean {
  if (p.chunks.length === 1) return ends(p, s, forward(p.chunks[0].parts, s, 0));
  return across(p.chunks, s) || (p.open !== undefined && across(p.open, s));
}

/** A one-chunk match ending at `end` covers the path (or, with the tail, is followed by '/'). */
const ends = (p: PathPattern, s: string, end: number) => end === s.length || (end >= 0 && p.tail && s.charCodeAt(end) === 0x2f);

/** Two or more chunks (one `*` at least): first forward, last backward, the others leftmost. */
function across(chunks: Chunk[], s: string): boolean {
  const from = forward(chunks[0].parts, s, 0);
  if (from < 0) return false;
  const to = backward(chunks[chunks.length - 1].parts, s, s.length);
  if (to < from) return false;
  let at = from;
  for (let i = 1; i < chunks.length - 1; i++) {
    at = leftmost(chunks[i], s, at, to);
    if (at < 0) return false;
  }
  return true;
}

/** Where `parts` matched at `at` end, or -1. Placeholder spans go to `caps` as [start, end]. */
function forward(parts: Part[], s: string, at: number, caps?: number[]): number {
  let i = at;
  for (const part of parts) {
    if (part === PARAM) {
      let j = s.indexOf('/', i);
      if (j < 0) j = s.length;
      matcherSteps.count += j - i + 1;
      if (j === i) return -1;
      caps?.push(i, j);
      i = j;
    } else {
      matcherSteps.count += part.length;
      if (!s.startsWith(part, i)) return -1;
      i += part.length;
    }
  }
  return i;
}

/** Where `parts` matched so as to end at `end` start, or -1. */
function backward(parts: Part[], s: string, end: number): number {
  let i = end;
  for (let k = parts.length - 1; k >= 0; k--) {
    const part = parts[k];
    if (part === PARAM) {
      // A '/' is always before a placeholder: it is the whole run of non-'/' ending here.
      const j = i === 0 ? 0 : s.lastIndexOf('/', i - 1) + 1;
      matcherSteps.count += i - j + 1;
      if (j === i) return -1;
      i = j;
    } else {
      matcherSteps.count += part.length;
      if (i < part.length || !s.endsWith(part, i)) return -1;
      i -= part.length;
    }
  }
  return i;
}

/** The end of the leftmost-ending match of a middle chunk within s[from, limit), or -1. */
function leftmost(c: Chunk, s: string, from: number, limit: number): number {
  const lit = c.literal;
  if (lit !== undefined) {
    if (c.fail === undefined) {
      // One character: a plain scan.
      const at = s.indexOf(lit, from);
      matcherSteps.count += (at < 0 ? s.length : at) - from + 1;
      return at >= 0 && at < limit ? at + 1 : -1;
    }
    // KMP: each character of the path is read once; k only falls back through the table, by at
    // most as much as it rose.
    const fail = c.fail;
    let k = 0;
    let i = from;
    for (; i < limit; i++) {
      const ch = s.charCodeAt(i);
      while (k > 0 && lit.charCodeAt(k) !== ch) k = fail[k - 1];
      if (lit.charCodeAt(k) === ch && ++k === lit.length) break;
    }
    matcherSteps.count += 2 * (i - from + 1); // a read and at most one fall-back per character
    return i < limit ? i + 1 : -1;
  }
  // Shift-and over the segments from `from` on (the first one cut at `from`): bit j of `state`
  // says tokens 0..j match the segments ending with the current one.
  const scan = c.scan!;
  let state = 0;
  let start = from;
  while (start <= limit) {
    let end = s.indexOf('/', start);
    if (end < 0) end = s.length;
    const seg = s.slice(start, end);
    matcherSteps.count += end - start + 1;
    let bits = (scan.exact.get(seg) ?? 0) | (seg.length > 0 ? scan.anyBits : 0);
    if (seg.endsWith(scan.first)) bits |= 1;
    if (seg.startsWith(scan.last)) bits |= scan.lastBit;
    state = ((state << 1) | 1) & bits;
    if (state & scan.lastBit) {
      const matchEnd = start + scan.last.length;
      return matchEnd <= limit ? matchEnd : -1;
    }
    if (end === s.length) break;
    start = end + 1;
  }
  return -1;
}
