// What a developer may add as a custom domain: a DNS hostname (trimmed, lower-cased, trailing dot
// dropped, an international name in its punycode form, at most 253 characters, a top-level part
// of letters so never an IP address), and never the platform's own domain, one of its subdomains
// or the mail host: those answer for the platform and every project.
import { normalizeDomain } from '../mail';

export const DOMAIN_MESSAGES = {
  required: 'Hostname is required',
  invalid: 'Please enter a valid hostname (e.g., www.example.com)',
  reserved: 'This hostname belongs to the platform',
} as const;

export type HostnameCheck = { ok: true; hostname: string } | { ok: false; message: string };

export function normalizeHostname(input: unknown, platformDomain: string, mailHost?: string): HostnameCheck {
  if (typeof input !== 'string' || !input.trim()) return { ok: false, message: DOMAIN_MESSAGES.required };
  if (input.length > 253 * 4) return { ok: false, message: DOMAIN_MESSAGES.invalid };
  const check = normalizeDomain(input);
  if (!check.ok) return { ok: false, message: DOMAIN_MESSAGES.invalid };
  const hostname = check.domain;
  if (isPlatformHost(hostname, platformDomain) || hostname === mailHost) return { ok: false, message: DOMAIN_MESSAGES.reserved };
  return { ok: true, hostname };
}

/** The platform's domain itself or any name under it. */
export function isPlatformHost(hostname: string, platformDomain: string): boolean {
  const pd = platformDomain.toLowerCase();
  return hostname === pd || hostname.endsWith(`.${pd}`);
}

/** The name of a Host header (port and trailing dot dropped, lower-cased); undefined for IPs and junk. */
export function hostOfHeader(host: string | undefined): string | undefined {
  if (!host || host.length > 260 || host.startsWith('[')) return undefined;
  const name = host.replace(/:\d+$/, '').toLowerCase().replace(/\.$/, '');
  return /^[a-z0-9.-]+$/.test(name) && /[a-z]/.test(name.slice(name.lastIndexOf('.') + 1)) ? name : undefined;
}
