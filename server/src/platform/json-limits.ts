// The one bound on JSON that tenants send or upload: how deep arrays and objects may nest and how
// many bytes the text may take. Everything that parses a tenant's JSON (request bodies, site
// config files in an upload, backup archives, stored manifests) goes through parseBoundedJson.
//
// Why a depth limit: JSON.parse itself is iterative, but much of what follows a parse recurses
// once per level (JSON.stringify, structuredClone, ajv's and fast-json-stringify's walks, the pg
// driver's value preparation, PostgreSQL's jsonb parser). In a fresh Node 20 process
// JSON.stringify of nested arrays already overflows the stack between 1,000 and 5,000 levels, and
// less inside a deep call stack: a 5,000-level document was a 500 (RangeError) from the row API.
// 100 levels is Ruby's JSON and protobuf's default, leaves a tenant's own document (inside 3 or 4
// levels of request envelope) more nesting than real data has, and keeps every recursive step
// far below the depth where it would fail. The text is checked before it is parsed, so a refused
// document never becomes a tree.
export const DEFAULT_JSON_LIMITS = {
  /** Levels of arrays and objects; the outermost array or object is level 1. */
  maxDepth: 100,
  /** UTF-8 bytes of the text. */
  maxBytes: 1024 * 1024,
} as const;

/** Most a deployment may set JSON_MAX_DEPTH to: past ~1,000 the recursive steps above fail. */
export const MAX_CONFIGURABLE_JSON_DEPTH = 1000;

export interface JsonLimits {
  maxDepth: number;
  maxBytes: number;
}

/** A document past one of the limits; the message names the limit (and what was parsed, `what`). */
export class JsonLimitError extends Error {
  constructor(
    readonly kind: 'depth' | 'size',
    readonly limit: number,
    what: string,
  ) {
    super(
      kind === 'depth'
        ? `${what} nests arrays and objects deeper than ${limit} levels (the limit)`
        : `${what} is larger than ${limit} bytes (the limit)`,
    );
    this.name = 'JsonLimitError';
  }
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text nests deeper than `maxDepth`, read without parsing (one pass; brackets inside
 * strings don't count). Text that is not valid JSON gets an answer too; the parse that follows
 * refuses it.
 */
export function jsonTextTooDeep(text: string, maxDepth: number): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skip the string: to the next quote not escaped by a backslash.
      for (i++; i < n; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** How deep arrays and objects nest in a value (iterative: any depth); 0 for a scalar. */
export function jsonValueDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    const level = d + 1;
    if (level > deepest) deepest = level;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child && typeof child === 'object') stack.push([child, level]);
  }
  return deepest;
}

/**
 * JSON text parsed within the limits, or a JsonLimitError naming the one passed (a SyntaxError for
 * text that is not JSON). `reviveWith` parses (secure-json-parse for request bodies).
 */
export function parseBoundedJson(
  text: string,
  what: string,
  limits: JsonLimits = DEFAULT_JSON_LIMITS,
  reviveWith: (text: string) => unknown = JSON.parse,
): unknown {
  // Characters first: a string of n UTF-16 units takes at least n bytes.
  if (text.length > limits.maxBytes || Buffer.byteLength(text, 'utf8') > limits.maxBytes) throw new JsonLimitError('size', limits.maxBytes, what);
  if (jsonTextTooDeep(text, limits.maxDepth)) throw new JsonLimitError('depth', limits.maxDepth, what);
  return reviveWith(text);
}
