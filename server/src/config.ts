// Environment → a typed Config, built once at start and passed in (app.ts never reads process.env).
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import net from 'node:net';
import type { HttpLimits } from './platform/http/connection-limits';
import { DEFAULT_SITE_LIMITS } from './platform/limits';
import { checkDatabaseUrl } from './platform/startup-problems';
import { DEFAULT_JSON_LIMITS, MAX_CONFIGURABLE_JSON_DEPTH, type JsonLimits } from './platform/json-limits';

export interface S3Config {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  platformDomain: string;
  publicUrl: string;
  /** Absent: embedded PGlite under dataDir/pglite. */
  databaseUrl?: string;
  jwtSecret: string;
  /** Absent: mails are written as .eml files under dataDir/outbox. */
  smtpUrl?: string;
  mailFrom: string;
  s3?: S3Config;
  /** Cost of scrypt as log2(N); 15 = 32 MiB per hash. */
  passwordHashCost: number;
  maxUploadBytes: number;
  /** JSON a tenant sends or uploads (JSON_MAX_DEPTH, JSON_MAX_BYTES): platform/json-limits.ts says why. */
  json: JsonLimits;
  /**
   * The longest a signed URL to a stored file may live (STORAGE_SIGNED_URL_MAX_SECONDS, 60 to
   * 604800; default 86400 = 1 day). Nothing stored can revoke one: this bounds how long a URL
   * outlives a change that the download-time checks can't see.
   */
  signedUrlMaxSeconds: number;
  /** Serve web/dist at / when it exists. */
  webDir?: string;
  logLevel: string;
  /** json: JSON lines always; auto: readable lines when stdout is a terminal (platform/log-format.ts). */
  logFormat: 'json' | 'auto';
  trustProxy: boolean;
  /** Where Node/PHP/Flask sites run: child processes here, or Docker containers in production. */
  siteRuntime: 'process' | 'docker';
  /**
   * Which instance runs dynamic sites (SITE_RUNNER): local = this one, for what it serves (one
   * instance); lease = the one holding the runner lease in the database, every other proxies to
   * it (several instances; modules/hosting/runtime/runtime.leased.ts); gateway = never this one.
   */
  siteRunner: 'local' | 'lease' | 'gateway';
  /** How other instances reach this one (INSTANCE_URL): the runner's proxy target. */
  instanceUrl: string;
  dockerSocket: string;
  /** The Docker network sites join (SITE_RUNTIME=docker); never `host`. */
  dockerNetwork: string;
  /** Each hosted site's ceiling: resident memory, processes (and threads), CPU in cores. */
  siteLimits: { memoryBytes: number; maxProcesses: number; cpus: number };
  /** A site's way out: the public internet through a filter (default), or nothing. */
  siteEgress: 'internet' | 'none';
  /** Deployments kept per project (HOSTING_KEEP_DEPLOYMENTS); older ones are pruned, never the live one. */
  hostingKeepDeployments: number;
  /**
   * Builds from source (modules/hosting/build): what one build may use (BUILD_TIMEOUT_SECONDS,
   * BUILD_MEMORY_MB, BUILD_DISK_MB), how many run at once on this instance (BUILD_CONCURRENCY;
   * the others wait their turn), how many of one account's run at once across the platform
   * (BUILD_PER_ACCOUNT; its others wait, so one tenant never fills every slot) and the Python package index pip may use (PIP_INDEX_URL; absent:
   * none, so requirements are installed from the upload's own wheels and the host's packages).
   */
  builds: { timeoutMs: number; memoryBytes: number; diskBytes: number; concurrency: number; perAccount: number; pipIndexUrl?: string };
  /** Slow clients and connection floods on the one port (platform/http/connection-limits.ts). */
  http: HttpLimits;
  /** How long projects' statements may run, and what a caller whose statement ran out waits. */
  database: DatabaseLimits;
  /** This server's version (health answers it): package.json's, else npm's npm_package_version. */
  version: string;
  /** Hosted mail (modules/mail): the host projects' MX records point at (MAIL_HOST). */
  mailHost: string;
  /** DNS servers for domain verification (DNS_SERVERS, "ip[:port]" list); absent: the system's. */
  dnsServers?: string[];
  /** The webmail the console links to (WEBMAIL_URL); absent: no link. */
  webmailUrl?: string;
  /** The mail host's OpenDKIM key dir (MAIL_DKIM_DIR): verified domains' keys are written there. */
  mailDkimDir?: string;
  /** OpenDKIM's pid file (MAIL_DKIM_PID_FILE): signalled to reload after the keys change. */
  mailDkimPidFile?: string;
  /**
   * The path project mail takes once a project's domain is verified (MAIL_PROJECT_SMTP_URL, e.g.
   * smtp://127.0.0.1:2587: the mail host's platform port, which signs with the domain's DKIM key).
   * Absent: every end-user mail comes from the platform's address (mailFrom).
   */
  mailProjectSmtpUrl?: string;
  /** The platform runs on PostgreSQL and talks to the mail servers (MAIL_DKIM_DIR or MAIL_PROJECT_SMTP_URL set). */
  mailServersAttached: boolean;
  /**
   * Razorpay (RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET, RAZORPAY_WEBHOOK_SECRET, RAZORPAY_API_URL):
   * plan payments in INR. Absent (no key id and secret): the test provider, where no money moves.
   */
  razorpay?: { keyId: string; keySecret: string; webhookSecret?: string; apiUrl: string };
  /** Custom domains of hosted sites (modules/domains): ACME, the HTTPS port and the records shown. */
  domains: DomainsConfig;
}

export interface DatabaseLimits {
  /** DB_STATEMENT_TIMEOUT_MS: a project's statement ends here (statement_timeout; on PGlite, its worker is restarted). */
  statementTimeoutMs: number;
  /** DB_PLATFORM_STATEMENT_TIMEOUT_MS: on PGlite, the deadline of the platform's own statements. */
  platformStatementTimeoutMs: number;
  /**
   * DB_TIMEOUT_COOLDOWN_SECONDS: after a caller's statement ran out, its calls are refused (429)
   * this long; each further one within a day doubles it, up to DB_TIMEOUT_COOLDOWN_MAX_SECONDS.
   */
  cooldownSeconds: number;
  cooldownMaxSeconds: number;
}

export interface DomainsConfig {
  /** ACME_DIRECTORY_URL: the CA's directory (default Let's Encrypt's production one). */
  acmeDirectoryUrl: string;
  /** ACME_EMAIL: the ACME account's contact; absent: none. */
  acmeEmail?: string;
  /** ACME_CA_FILE: PEM roots trusted (beside the system's) for the ACME directory's TLS, e.g. a test CA. */
  acmeCaFile?: string;
  /** HTTPS_PORT: the port custom domains are served on by SNI (0: any free port); absent: no HTTPS. */
  httpsPort?: number;
  /** CUSTOM_DOMAIN_ADDRESSES: IPv4/IPv6 addresses an apex domain's A/AAAA records may point at. */
  addresses: string[];
}

function domainsConfig(env: Env): DomainsConfig {
  const addresses = (env.CUSTOM_DOMAIN_ADDRESSES ?? '').split(',').map((a) => a.trim()).filter(Boolean);
  for (const a of addresses) if (!net.isIP(a)) throw new Error(`CUSTOM_DOMAIN_ADDRESSES must be IP addresses, got "${a}"`);
  const port = env.HTTPS_PORT === undefined || env.HTTPS_PORT === '' ? undefined : int(env, 'HTTPS_PORT', 0);
  if (port !== undefined && port > 65535) throw new Error(`HTTPS_PORT must be a port number, got "${env.HTTPS_PORT}"`);
  const directory = env.ACME_DIRECTORY_URL || 'https://acme-v02.api.letsencrypt.org/directory';
  if (!/^https:\/\//.test(directory)) throw new Error(`ACME_DIRECTORY_URL must be an https URL, got "${directory}"`);
  return { acmeDirectoryUrl: directory, acmeEmail: env.ACME_EMAIL || undefined, acmeCaFile: env.ACME_CA_FILE || undefined, httpsPort: port, addresses };
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function jsonLimits(env: Env): JsonLimits {
  const maxDepth = atLeastOne(env, 'JSON_MAX_DEPTH', DEFAULT_JSON_LIMITS.maxDepth);
  if (maxDepth > MAX_CONFIGURABLE_JSON_DEPTH) throw new Error(`JSON_MAX_DEPTH must be at most ${MAX_CONFIGURABLE_JSON_DEPTH}, got "${env.JSON_MAX_DEPTH}"`);
  return { maxDepth, maxBytes: atLeastOne(env, 'JSON_MAX_BYTES', DEFAULT_JSON_LIMITS.maxBytes) };
}

function atLeastOne(env: Env, name: string, fallback: number): number {
  const n = int(env, name, fallback);
  if (n < 1) throw new Error(`${name} must be at least 1, got "${env[name]}"`);
  return n;
}

/** A secret generated on first start and kept under the data dir, so restarts keep tokens valid. */
function persistentSecret(dataDir: string, file: string): string {
  const p = path.join(dataDir, file);
  try {
    return fs.readFileSync(p, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const secret = crypto.randomBytes(48).toString('base64url');
    fs.writeFileSync(p, secret + '\n', { mode: 0o600, flag: 'wx' });
    return secret;
  }
}

function positive(env: Env, name: string, fallback: number): number {
  const n = int(env, name, fallback);
  if (n === 0) throw new Error(`${name} must be a positive integer, got "0"`);
  return n;
}

function signedUrlMaxSeconds(env: Env): number {
  const n = int(env, 'STORAGE_SIGNED_URL_MAX_SECONDS', 86_400);
  if (n < 60 || n > 604_800) throw new Error(`STORAGE_SIGNED_URL_MAX_SECONDS must be 60 to 604800 (7 days), got "${env.STORAGE_SIGNED_URL_MAX_SECONDS}"`);
  return n;
}

// Production logs go to collectors that want JSON lines whatever the terminal.
function logFormat(env: Env): 'json' | 'auto' {
  const raw = env.LOG_FORMAT || 'auto';
  if (raw !== 'json' && raw !== 'auto') throw new Error(`LOG_FORMAT must be "json" or "auto", got "${raw}"`);
  return env.NODE_ENV === 'production' ? 'json' : raw;
}

function siteRuntime(raw: string | undefined): 'process' | 'docker' {
  if (!raw || raw === 'process') return 'process';
  if (raw === 'docker') return 'docker';
  throw new Error(`SITE_RUNTIME must be "process" or "docker", got "${raw}"`);
}

function siteRunner(raw: string | undefined, databaseUrl: string | undefined): 'local' | 'lease' | 'gateway' {
  // Embedded PGlite is one process's database: one instance, so its sites run here.
  if (!raw) return databaseUrl ? 'lease' : 'local';
  if (raw === 'local' || raw === 'lease' || raw === 'gateway') return raw;
  throw new Error(`SITE_RUNNER must be "local", "lease" or "gateway", got "${raw}"`);
}

function instanceUrl(raw: string | undefined, port: number): string {
  if (!raw) return `http://127.0.0.1:${port}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`INSTANCE_URL must be an http:// URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' || url.pathname !== '/' || url.search) throw new Error(`INSTANCE_URL must be an http:// URL of this instance on the private network (no path), got "${raw}"`);
  return url.origin;
}

function dockerNetwork(raw: string | undefined): string {
  if (raw === 'host') throw new Error('DOCKER_NETWORK must not be "host": hosted sites never share the host network');
  return raw || 'bridge';
}

function egress(raw: string | undefined): 'internet' | 'none' {
  if (!raw || raw === 'internet') return 'internet';
  if (raw === 'none') return 'none';
  throw new Error(`SITE_EGRESS must be "internet" or "none", got "${raw}"`);
}

function cpus(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_SITE_LIMITS.cpus;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0.01 || n > 256) throw new Error(`SITE_CPUS must be a number of cores between 0.01 and 256, got "${raw}"`);
  return n;
}

/** The repository root: two folders above server/src, three above dist/server/src. */
const ROOT = path.resolve(__dirname, '..', '..', ...(__dirname.includes(`${path.sep}dist${path.sep}`) ? ['..'] : []));

function version(env: Env): string {
  try {
    const { version: v } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version?: unknown };
    if (typeof v === 'string' && v) return v;
  } catch {
    // no package.json beside the build: fall back to what npm says
  }
  return env.npm_package_version || '0.0.0';
}

/** DNS_SERVERS: comma-separated IP addresses, each with an optional port ("127.0.0.1:5300", "[::1]:53"). */
function dnsServers(raw: string | undefined): string[] | undefined {
  if (!raw || !raw.trim()) return undefined;
  return raw.split(',').map((s) => s.trim()).filter(Boolean).map((server) => {
    const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(server) ?? /^([^:]+)(?::(\d+))?$/.exec(server) ?? [server, server, undefined];
    const [, host, port] = m;
    const portOk = port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
    if (!net.isIP(host) || !portOk) throw new Error(`DNS_SERVERS must be IP addresses with an optional port (e.g. 127.0.0.1:5300), got "${server}"`);
    return server;
  });
}

function databaseLimits(env: Env): DatabaseLimits {
  const cooldownSeconds = positive(env, 'DB_TIMEOUT_COOLDOWN_SECONDS', 10);
  const cooldownMaxSeconds = positive(env, 'DB_TIMEOUT_COOLDOWN_MAX_SECONDS', 600);
  if (cooldownMaxSeconds < cooldownSeconds) throw new Error(`DB_TIMEOUT_COOLDOWN_MAX_SECONDS must be at least DB_TIMEOUT_COOLDOWN_SECONDS (${cooldownSeconds}), got "${cooldownMaxSeconds}"`);
  return {
    statementTimeoutMs: positive(env, 'DB_STATEMENT_TIMEOUT_MS', 5000),
    platformStatementTimeoutMs: positive(env, 'DB_PLATFORM_STATEMENT_TIMEOUT_MS', 60_000),
    cooldownSeconds,
    cooldownMaxSeconds,
  };
}

function razorpay(env: Env): Config['razorpay'] {
  const keyId = env.RAZORPAY_KEY_ID || '';
  const keySecret = env.RAZORPAY_KEY_SECRET || '';
  if (!keyId && !keySecret) return undefined;
  if (!keyId || !keySecret) throw new Error('RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET go together: set both (Razorpay) or neither (test payments)');
  const apiUrl = (env.RAZORPAY_API_URL || 'https://api.razorpay.com').replace(/\/+$/, '');
  if (!/^https?:\/\//.test(apiUrl)) throw new Error(`RAZORPAY_API_URL must be an http(s) URL, got "${env.RAZORPAY_API_URL}"`);
  return { keyId, keySecret, webhookSecret: env.RAZORPAY_WEBHOOK_SECRET || undefined, apiUrl };
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000);
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const s3 = env.S3_ENDPOINT
    ? {
        endpoint: env.S3_ENDPOINT,
        accessKey: env.S3_ACCESS_KEY ?? '',
        secretKey: env.S3_SECRET_KEY ?? '',
        bucket: env.S3_BUCKET || 'hostbase',
        region: env.S3_REGION || 'us-east-1',
      }
    : undefined;
  const platformDomain = (env.PLATFORM_DOMAIN || 'localhost').toLowerCase();
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  const trustProxy = env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1';
  const webDir = path.join(ROOT, 'web', 'dist');
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    platformDomain,
    publicUrl,
    databaseUrl: env.DATABASE_URL ? (checkDatabaseUrl(env.DATABASE_URL), env.DATABASE_URL) : undefined,
    jwtSecret: env.JWT_SECRET || persistentSecret(dataDir, 'jwt-secret'),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || `Hostbase <no-reply@${new URL(publicUrl).hostname}>`,
    s3,
    passwordHashCost: int(env, 'PASSWORD_HASH_COST', 15),
    maxUploadBytes: int(env, 'MAX_UPLOAD_BYTES', 100 * 1024 * 1024),
    json: jsonLimits(env),
    signedUrlMaxSeconds: signedUrlMaxSeconds(env),
    webDir: fs.existsSync(webDir) ? webDir : undefined,
    logLevel: env.LOG_LEVEL || 'info',
    logFormat: logFormat(env),
    trustProxy,
    siteRuntime: siteRuntime(env.SITE_RUNTIME),
    siteRunner: siteRunner(env.SITE_RUNNER, env.DATABASE_URL || undefined),
    instanceUrl: instanceUrl(env.INSTANCE_URL, port),
    dockerSocket: env.DOCKER_SOCKET || '/var/run/docker.sock',
    dockerNetwork: dockerNetwork(env.DOCKER_NETWORK),
    siteLimits: {
      memoryBytes: int(env, 'SITE_MEMORY_MB', DEFAULT_SITE_LIMITS.memoryBytes / 1024 / 1024) * 1024 * 1024,
      maxProcesses: int(env, 'SITE_MAX_PROCESSES', DEFAULT_SITE_LIMITS.maxProcesses),
      cpus: cpus(env.SITE_CPUS),
    },
    siteEgress: egress(env.SITE_EGRESS),
    hostingKeepDeployments: atLeastOne(env, 'HOSTING_KEEP_DEPLOYMENTS', 10),
    builds: {
      timeoutMs: atLeastOne(env, 'BUILD_TIMEOUT_SECONDS', 900) * 1000,
      memoryBytes: atLeastOne(env, 'BUILD_MEMORY_MB', 2048) * 1024 * 1024,
      diskBytes: atLeastOne(env, 'BUILD_DISK_MB', 4096) * 1024 * 1024,
      concurrency: atLeastOne(env, 'BUILD_CONCURRENCY', 1),
      perAccount: atLeastOne(env, 'BUILD_PER_ACCOUNT', 2),
      pipIndexUrl: env.PIP_INDEX_URL || undefined,
    },
    http: {
      headersTimeoutMs: positive(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000),
      bodyTimeoutMs: positive(env, 'HTTP_BODY_TIMEOUT_MS', 30_000),
      bodyMinBytesPerSecond: int(env, 'HTTP_BODY_MIN_BYTES_PER_SECOND', 1024),
      // Behind a load balancer: above the balancer's idle timeout (60 s on common ones), or it
      // reuses a connection this side is closing; and every connection comes from the balancer:
      // no per-address cap unless asked for.
      keepAliveTimeoutMs: positive(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', trustProxy ? 75_000 : 5_000),
      maxConnectionsPerAddress: int(env, 'HTTP_MAX_CONNECTIONS_PER_ADDRESS', trustProxy ? 0 : 256),
    },
    database: databaseLimits(env),
    version: version(env),
    mailHost: (env.MAIL_HOST || `mail.${platformDomain}`).toLowerCase().replace(/\.$/, ''),
    dnsServers: dnsServers(env.DNS_SERVERS),
    webmailUrl: env.WEBMAIL_URL || undefined,
    mailDkimDir: env.MAIL_DKIM_DIR || undefined,
    mailDkimPidFile: env.MAIL_DKIM_PID_FILE || undefined,
    mailProjectSmtpUrl: env.MAIL_PROJECT_SMTP_URL || undefined,
    mailServersAttached: !!env.DATABASE_URL && !!(env.MAIL_DKIM_DIR || env.MAIL_PROJECT_SMTP_URL),
    razorpay: razorpay(env),
    domains: domainsConfig(env),
  };
}
