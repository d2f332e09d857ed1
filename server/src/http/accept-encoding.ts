// Content-coding negotiation (RFC 9110 section 12.5.3), for the console's precompressed assets
// (web-assets.ts) and large JSON answers (compress.ts). Pure: a header in, a coding out.
import { varyWith } from './vary';

export type Coding = 'br' | 'gzip' | 'identity';

/** Preference on a tie of q-values: the smallest bytes first. */
const ORDER: Coding[] = ['br', 'gzip', 'identity'];

/** Below any q-value a client can write (three decimals at most). */
const IMPLICIT_IDENTITY = 0.0001;

/** `gzip;q=0.5, br` -> Map { gzip => 0.5, br => 1 }; an entry with a malformed q-value is dropped. */
function weights(header: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    let q = 1;
    let valid = true;
    for (const p of params) {
      const m = /^q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.exec(p);
      if (m) q = Number(m[1]);
      else if (p.startsWith('q')) valid = false;
    }
    if (!valid) continue;
    // x-gzip is gzip's old name (9110 8.4.1.3). The highest weight of a repeated coding wins.
    const coding = name === 'x-gzip' ? 'gzip' : name;
    out.set(coding, Math.max(q, out.get(coding) ?? 0));
  }
  return out;
}

/**
 * The coding to answer with among `available` (identity is always available). No header: identity
 * (any coding would be acceptable, but a client that says nothing may not decode one). A coding
 * not named takes `*`'s weight; identity is acceptable unless refused by `identity;q=0` or by
 * `*;q=0` without an identity entry, and when not named it comes after every coding named. When nothing is acceptable the header is disregarded and
 * identity is sent, which the RFC allows in place of a 406.
 */
export function negotiateEncoding(header: string | string[] | undefined, available: readonly Exclude<Coding, 'identity'>[]): Coding {
  if (header === undefined) return 'identity';
  const w = weights(Array.isArray(header) ? header.join(',') : header);
  const star = w.get('*');
  const weight = (c: Coding): number => {
    const own = w.get(c);
    if (own !== undefined) return own;
    if (star !== undefined) return star;
    // Unnamed identity is acceptable, but any coding the client did name (q > 0) comes first.
    return c === 'identity' ? IMPLICIT_IDENTITY : 0;
  };
  let best: Coding = 'identity';
  let bestQ = 0;
  for (const c of ORDER) {
    if (c !== 'identity' && !available.includes(c)) continue;
    const q = weight(c);
    if (q > bestQ) {
      best = c;
      bestQ = q;
    }
  }
  return best;
}

/** Adds Accept-Encoding to a Vary header value without repeating it. */
export function varyWithAcceptEncoding(current: string | number | string[] | undefined): string {
  return varyWith(current, 'Accept-Encoding');
}
