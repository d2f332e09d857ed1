// Values a worker thread sent, remade in this thread's JavaScript realm. A message arrives in the
// realm of Node's own context; code running in another one (a jest test's vm context) would find
// its Dates failing `instanceof Date` (fast-json-stringify's date-time check does that). The host
// remakes them only when its probe says the realms differ: never in the server itself.
import { types } from 'node:util';

export function inThisRealm(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return Array.from(value, inThisRealm);
  if (types.isDate(value)) return new Date(value.getTime());
  if (types.isUint8Array(value)) return new Uint8Array(value);
  if (types.isArrayBuffer(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = inThisRealm(v);
  return out;
}
