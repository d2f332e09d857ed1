// Which subdomains a project may have: a DNS label (a-z, 0-9, inner hyphens, 3-63 characters)
// that is not one of the platform's own names.
export const RESERVED_SUBDOMAINS = new Set([
  'www', 'api', 'app', 'apps', 'admin', 'administrator', 'console', 'dashboard', 'mail', 'smtp', 'imap', 'pop', 'pop3',
  'webmail', 'mx', 'ns', 'ns1', 'ns2', 'dns', 'storage', 's3', 'cdn', 'static', 'assets', 'docs', 'status', 'blog',
  'help', 'support', 'auth', 'login', 'signup', 'account', 'accounts', 'billing', 'pay', 'payments', 'hostbase',
  'root', 'system', 'internal', 'localhost', 'test', 'dev', 'staging', 'prod', 'git', 'ftp', 'ssh', 'vpn', 'db',
  'database', 'postgres', 'minio', 'autoconfig', 'autodiscover', 'mta-sts', 'security', 'abuse', 'postmaster',
]);

export type SubdomainProblem = 'invalid' | 'reserved';

export function normalizeSubdomain(input: string): string {
  return input.trim().toLowerCase();
}

export function subdomainProblem(subdomain: string): SubdomainProblem | undefined {
  if (!/^[a-z0-9](?:[a-z0-9-]{1,61})[a-z0-9]$/.test(subdomain)) return 'invalid';
  if (RESERVED_SUBDOMAINS.has(subdomain)) return 'reserved';
  return undefined;
}
