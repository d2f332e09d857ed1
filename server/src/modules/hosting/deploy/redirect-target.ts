// A _redirects target (TO) with its `:placeholders`, compiled once per deployment and filled in
// per request with what the path matched, so that a target built from a request stays where the
// developer pointed it:
//   - a target in the site (TO starts with "/") never leaves it: the run of '/', '\', spaces and
//     control characters (or their %-encodings: %2F, %5C, %09, %0A, %20, …) at its start is one
//     '/'. `/old/*  /:splat` answering `/old//evil.example` with `Location: //evil.example` (which
//     a browser follows to evil.example, as it does `/\evil.example` and `/<tab>/evil.example`)
//     now answers `Location: /evil.example`.
//   - an http(s) target keeps the host the developer wrote: a value filled into the host part may
//     hold letters, digits, '-' and '.' only, so it cannot add '@', ':', '/', '#' or '?' there; a
//     request whose value would is refused (the caller answers 400).
//   - in both, spaces and control characters a value brings are %-encoded: browsers drop tabs and
//     newlines anywhere in a URL, which could join two slashes after the fact.
// The developer's own text is judged at deploy time (site-rules.ts); this is about the values.

const PLACEHOLDER = /:([A-Za-z_][A-Za-z0-9_]*)/g;
const EXTERNAL = /^https?:\/\//i;

export interface TargetTemplate {
  /** Literal text and placeholder names, alternating (literal first, possibly ''). */
  pieces: string[];
  external: boolean;
  /** For an external target: the pieces (by index) inside the host part. */
  hostPieces: number;
}

export function compileTarget(to: string): TargetTemplate {
  const external = EXTERNAL.test(to);
  let hostEnd = -1;
  if (external) {
    const after = to.indexOf('//') + 2;
    hostEnd = to.length;
    for (const c of '/?#\\') {
      const i = to.indexOf(c, after);
      if (i >= 0 && i < hostEnd) hostEnd = i;
    }
  }
  const pieces: string[] = [];
  let hostPieces = 0;
  let last = 0;
  for (const m of to.matchAll(PLACEHOLDER)) {
    pieces.push(to.slice(last, m.index), m[1]);
    if (m.index < hostEnd) hostPieces = pieces.length;
    last = m.index + m[0].length;
  }
  pieces.push(to.slice(last));
  return { pieces, external, hostPieces };
}

/** The placeholder names a target uses, in order (repeats included). */
export function targetNames(t: TargetTemplate): string[] {
  return t.pieces.filter((_, i) => i % 2 === 1);
}

/** The target for these values (a name without one stays as written), or undefined when refused. */
export function fillTarget(t: TargetTemplate, values: ReadonlyMap<string, string>): string | undefined {
  let out = t.pieces[0];
  for (let i = 1; i < t.pieces.length; i += 2) {
    const name = t.pieces[i];
    const value = values.get(name);
    if (value === undefined) out += `:${name}`;
    else if (i < t.hostPieces && !hostLike(value)) return undefined;
    else out += value;
    out += t.pieces[i + 1];
  }
  return t.external ? encodeControls(out) : onSite(out);
}

/** Letters, digits, '-' and '.': what a host name is made of. */
function hostLike(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i) | 0x20;
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e)) return false;
  }
  return true;
}

/** '/', '\', space, control characters: what a browser may read as (or strip before) a second slash. */
const leaves = (c: number) => c === 0x2f || c === 0x5c || c <= 0x20 || c === 0x7f;

/** A path in the site: its leading run of slashes, backslashes and blanks (raw or %-encoded) is one '/'. */
export function onSite(target: string): string {
  let i = 0;
  while (i < target.length) {
    if (leaves(target.charCodeAt(i))) i += 1;
    else if (target.charCodeAt(i) === 0x25 && encodedLeaves(target, i + 1)) i += 3;
    else break;
  }
  return `/${encodeControls(target.slice(i))}`;
}

/** The two characters at `at` are the hex digits of such a character (%2F, %5c, %09, …). */
function encodedLeaves(s: string, at: number): boolean {
  if (at + 2 > s.length) return false;
  const hi = hexDigit(s.charCodeAt(at));
  const lo = hexDigit(s.charCodeAt(at + 1));
  return hi >= 0 && lo >= 0 && leaves(hi * 16 + lo);
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x66 ? l - 0x61 + 10 : -1;
}

/** Spaces and control characters as %XX (a Location header may carry neither). */
export function encodeControls(s: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x20 && c !== 0x7f) continue;
    out += `${s.slice(from, i)}%${c.toString(16).toUpperCase().padStart(2, '0')}`;
    from = i + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}
