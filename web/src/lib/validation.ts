// Client-side checks with the exact messages of SPEC section 5. The rules shared with the server
// (lengths, origins, site URL) come from shared/rules.ts, itself from openapi.yaml.
import { MAILBOX_PASSWORD_MIN, MAX_ALLOWED_ORIGINS, PASSWORD_MIN, checkSiteUrl, normalizeOrigin } from '../../../shared/rules';

export const EXAMPLE_DOMAIN = 'example.com';
const DOMAIN_RE = /^(?=.{1,253}$)(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,}$/;

/** Returns an error message, or null when the sending domain is acceptable. */
export function validateDomain(value: string): string | null {
  const v = value.trim();
  if (!v) return 'Domain name is required';
  if (!DOMAIN_RE.test(v)) return `Please enter a valid domain name (e.g., ${EXAMPLE_DOMAIN})`;
  return null;
}

/** The mailbox username: the text before any @. */
export function mailboxUsername(value: string): string {
  return value.split('@')[0].trim();
}

export function validateMailboxUsername(value: string, existing: string[] = [], domain = ''): string | null {
  const user = mailboxUsername(value);
  if (!user) return 'Please enter a valid username';
  const full = `${user}@${domain}`.toLowerCase();
  if (existing.some((e) => e.toLowerCase() === full || mailboxUsername(e).toLowerCase() === user.toLowerCase())) {
    return 'This email already exists';
  }
  return null;
}

/** Mailbox password rules, checked in order. */
export function validateMailboxPassword(value: string): string | null {
  if (value.length < MAILBOX_PASSWORD_MIN) return `Password must be at least ${MAILBOX_PASSWORD_MIN} characters`;
  if (!/[A-Z]/.test(value)) return 'Must contain one uppercase letter';
  if (!/[a-z]/.test(value)) return 'Must contain one lowercase letter';
  if (!/[0-9]/.test(value)) return 'Must contain one number';
  if (!/[!@#$%^&*]/.test(value)) return 'Must contain one special character';
  return null;
}

/** Subdomains as typed: lower case letters, digits and hyphens only. */
export function normalizeSubdomain(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9-]/g, '').slice(0, 63);
}

// ---------------------------------------------------------------- end-user auth settings

export const EXAMPLE_ORIGIN = 'https://app.example.com';
export { MAX_ALLOWED_ORIGINS };
export const END_USER_PASSWORD_MIN = PASSWORD_MIN;

/**
 * One allowed CORS origin as the server accepts it: http(s), a host and an optional port, no
 * path, query, credentials or wildcard. Returns the normalized origin, or an error message.
 */
export function checkOrigin(value: string): { origin: string } | { error: string } {
  const origin = normalizeOrigin(value);
  return origin === undefined ? { error: `"${value.trim()}" is not an origin like ${EXAMPLE_ORIGIN}` } : { origin };
}

/** The origins textarea (one per line, blank lines ignored) → the list, or the first error. */
export function parseOrigins(text: string): { origins: string[]; error: null } | { origins: null; error: string } {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const origins: string[] = [];
  for (const [i, line] of lines.entries()) {
    if (!line) continue;
    const r = checkOrigin(line);
    if ('error' in r) return { origins: null, error: `Line ${i + 1}: ${r.error}` };
    if (!origins.includes(r.origin)) origins.push(r.origin);
  }
  if (origins.length > MAX_ALLOWED_ORIGINS) return { origins: null, error: `List at most ${MAX_ALLOWED_ORIGINS} origins` };
  return { origins, error: null };
}

/** The site URL for end-user mail links: empty (the hosted pages), or an http(s) URL without query or fragment. */
export function validateSiteUrl(value: string): string | null {
  const checked = checkSiteUrl(value);
  if ('url' in checked) return null;
  if (checked.problem === 'not-a-url') return `Enter a URL like ${EXAMPLE_ORIGIN}`;
  return 'Enter an http(s) URL without query, fragment or credentials';
}

/** New end-user password and its confirmation. */
export function validateNewPassword(password: string, confirm: string): string | null {
  if ([...password].length < END_USER_PASSWORD_MIN) return `Password must be at least ${END_USER_PASSWORD_MIN} characters`;
  if (password !== confirm) return 'Passwords do not match';
  return null;
}
