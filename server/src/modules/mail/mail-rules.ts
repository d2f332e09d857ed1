// The product's rules for a mail domain, a mailbox username and a mailbox password (SPEC section
// 5), with its exact texts. The console checks the same (web/src/lib/validation.ts); the server
// is the one that decides.
import { domainToASCII } from 'node:url';
import { MAILBOX_PASSWORD_MIN } from '../../../../shared/rules';

export const EXAMPLE_DOMAIN = 'example.com';

export const MAIL_MESSAGES = {
  domainRequired: 'Domain name is required',
  domainInvalid: `Please enter a valid domain name (e.g., ${EXAMPLE_DOMAIN})`,
  usernameInvalid: 'Please enter a valid username',
  emailExists: 'This email already exists',
} as const;

/** Labels of letters, digits and inner hyphens; a top-level part of 2+ letters (or an IDN xn-- label). */
const HOSTNAME = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

export type DomainCheck = { ok: true; domain: string } | { ok: false; message: string };

/**
 * The domain as stored: trimmed, lower case, without a trailing dot, an international name in
 * its ASCII (punycode) form. Anything that is not such a hostname is refused with the SPEC's text.
 */
export function normalizeDomain(input: string): DomainCheck {
  const trimmed = input.trim();
  if (!trimmed) return { ok: false, message: MAIL_MESSAGES.domainRequired };
  // Only what a hostname can hold may reach the IDN conversion (it would map some odd
  // characters, e.g. full-width dots or soft hyphens, onto ordinary ones).
  if (/[\s/\\@:%?#[\]<>"'`;,*!$&()+=|~^{}\p{C}]/u.test(trimmed)) return { ok: false, message: MAIL_MESSAGES.domainInvalid };
  const lowered = trimmed.toLowerCase().replace(/\.$/, '');
  const ascii = /^[\x21-\x7e]*$/.test(lowered) ? lowered : domainToASCII(lowered);
  if (!ascii || !HOSTNAME.test(ascii)) return { ok: false, message: MAIL_MESSAGES.domainInvalid };
  return { ok: true, domain: ascii };
}

/** A mailbox username: the text before any @, trimmed and lower-cased; undefined when not valid. */
export function mailboxUsername(input: string): string | undefined {
  const user = input.split('@')[0].trim().toLowerCase();
  // Letters, digits and . _ - inside (no leading, trailing or doubled dot): safe for every MTA,
  // for Dovecot's mail directories and for SQL-driven lookups.
  if (!/^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/.test(user) || user.includes('..')) return undefined;
  return user;
}

const PASSWORD_RULES: [RegExp | ((p: string) => boolean), string][] = [
  [(p) => [...p].length >= MAILBOX_PASSWORD_MIN, `Password must be at least ${MAILBOX_PASSWORD_MIN} characters`],
  [/[A-Z]/, 'Must contain one uppercase letter'],
  [/[a-z]/, 'Must contain one lowercase letter'],
  [/[0-9]/, 'Must contain one number'],
  [/[!@#$%^&*]/, 'Must contain one special character'],
];

/** The first mailbox password rule broken, in the SPEC's order; undefined when none is. */
export function mailboxPasswordProblem(password: string): string | undefined {
  for (const [rule, message] of PASSWORD_RULES) {
    const ok = typeof rule === 'function' ? rule(password) : rule.test(password);
    if (!ok) return message;
  }
  return undefined;
}
