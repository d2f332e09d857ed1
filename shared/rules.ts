// Rules the server and the console both apply, written once. Their shapes come from the contract
// (shared/generated/contract.ts, from openapi.yaml); each side words its own messages.
import { schemas } from './generated/contract';

export { MAX_ALLOWED_ORIGINS, PASSWORD_MIN, PROJECT_TYPES, type ProjectType } from './generated/contract';

/**
 * A mailbox password's minimum length. Not in the contract's schema on purpose (openapi.yaml,
 * MailboxPassword): the server checks the username and then each password rule in the spec's
 * order, so request validation must not answer the length first.
 */
export const MAILBOX_PASSWORD_MIN = 8;

const ORIGIN = new RegExp(schemas.Origin.pattern);
const SITE_URL = new RegExp(schemas.SiteUrl.pattern);

function parseUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

/**
 * An allowed CORS origin as stored (scheme://host[:port], lower case, no trailing slash), or
 * undefined when `value` is not exactly an origin: no path, query, credentials, wildcard or
 * default port, and within the contract's Origin pattern.
 */
export function normalizeOrigin(value: string): string | undefined {
  const raw = value.trim().replace(/\/$/, '');
  if (!raw || raw.includes('*')) return undefined;
  const url = parseUrl(raw);
  if (!url || url.origin.toLowerCase() !== raw.toLowerCase()) return undefined;
  return ORIGIN.test(url.origin) ? url.origin : undefined;
}

export type SiteUrlCheck = { url: string | null } | { problem: 'not-a-url' | 'shape' };

/**
 * A site URL (the base of end-user mail links) as stored, without a trailing slash; null for an
 * empty value (it clears the setting). 'not-a-url' when it does not parse, 'shape' when it is not
 * an http(s) URL without query, fragment or credentials in the contract's SiteUrl pattern.
 */
export function checkSiteUrl(value: string | null): SiteUrlCheck {
  const raw = value?.trim() ?? '';
  if (!raw) return { url: null };
  const url = parseUrl(raw);
  if (!url) return { problem: 'not-a-url' };
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || url.hash || url.username || url.password) return { problem: 'shape' };
  const normalized = url.toString().replace(/\/+$/, '');
  return SITE_URL.test(normalized) ? { url: normalized } : { problem: 'shape' };
}
