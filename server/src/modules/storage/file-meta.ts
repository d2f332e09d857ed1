// What we record about an uploaded file from what the client said: a safe display name and a
// MIME type. Both end up in response headers, so anything that could break a header is dropped.
import { typeByName } from '../../platform/http/mime';

const OCTET = 'application/octet-stream';
/**
 * Types that say little about a file part: octet-stream is what browsers send for unknown
 * files, and text/plain is what the multipart parser assumes for a part with no type at all.
 */
const VAGUE = new Set([OCTET, 'text/plain']);
/** type/subtype only (parameters dropped), RFC 6838 characters, as a header value can carry. */
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

export function objectType(clientType: string | undefined, name: string): string {
  const declared = (clientType ?? '').split(';')[0]!.trim().toLowerCase();
  const byExtension = /\.[a-z0-9]{1,10}$/i.test(name) ? typeByName(name) : undefined;
  if (MIME.test(declared) && !(VAGUE.has(declared) && byExtension)) return declared;
  return byExtension ?? OCTET;
}

/** The file's name without any folder part or control characters, at most 255 characters. */
export function displayName(filename: string | undefined): string {
  // eslint-disable-next-line no-control-regex -- control characters are matched on purpose, to refuse them
  const base = (filename ?? '').split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return Array.from(base).slice(0, 255).join('') || 'file';
}

/** `inline` or `attachment` with the original name: an ASCII fallback and RFC 5987 `filename*`. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
