// Client-side checks with the exact messages of SPEC section 5.

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
  if (value.length < 8) return 'Password must be at least 8 characters';
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
