// Configuration from the environment: every variable optional, bad values refused at start.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/src/config';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-config-'));

test('defaults: port 3000, ./data-style dir, localhost domain, PGlite, outbox, disk, process runtime', () => {
  const dir = tmp();
  const c = loadConfig({ DATA_DIR: dir });
  expect(c).toMatchObject({ port: 3000, dataDir: dir, platformDomain: 'localhost', publicUrl: 'http://localhost:3000', siteRuntime: 'process' });
  expect(c.databaseUrl).toBeUndefined();
  expect(c.smtpUrl).toBeUndefined();
  expect(c.s3).toBeUndefined();
  expect(c.maxUploadBytes).toBe(100 * 1024 * 1024);
  expect(c.signedUrlMaxSeconds).toBe(86_400);
});

test('STORAGE_SIGNED_URL_MAX_SECONDS: 60 to 604800, anything else refused at start', () => {
  const dir = tmp();
  expect(loadConfig({ DATA_DIR: dir, STORAGE_SIGNED_URL_MAX_SECONDS: '600' }).signedUrlMaxSeconds).toBe(600);
  for (const bad of ['59', '604801', 'soon', '-1']) expect(() => loadConfig({ DATA_DIR: dir, STORAGE_SIGNED_URL_MAX_SECONDS: bad })).toThrow(/STORAGE_SIGNED_URL_MAX_SECONDS/);
});

test('a generated JWT secret is kept under DATA_DIR and reused on the next start', () => {
  const dir = tmp();
  const first = loadConfig({ DATA_DIR: dir }).jwtSecret;
  expect(first.length).toBeGreaterThanOrEqual(32);
  expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(first);
  expect(fs.statSync(path.join(dir, 'jwt-secret')).mode & 0o077).toBe(0);
});

test('explicit values win; PUBLIC_URL follows PORT and loses a trailing slash', () => {
  const dir = tmp();
  expect(loadConfig({ DATA_DIR: dir, PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
  const c = loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'https://hb.example.com/', PLATFORM_DOMAIN: 'Apps.Example.com', JWT_SECRET: 's', S3_ENDPOINT: 'http://127.0.0.1:9000', SITE_RUNTIME: 'docker' });
  expect(c).toMatchObject({ publicUrl: 'https://hb.example.com', platformDomain: 'apps.example.com', jwtSecret: 's', siteRuntime: 'docker' });
  expect(c.s3).toMatchObject({ endpoint: 'http://127.0.0.1:9000', bucket: 'hostbase', region: 'us-east-1' });
});

test('slow-client and connection limits: defaults, explicit values, and no per-address cap behind a proxy', () => {
  const dir = tmp();
  expect(loadConfig({ DATA_DIR: dir }).http).toEqual({
    headersTimeoutMs: 10_000,
    bodyTimeoutMs: 30_000,
    bodyMinBytesPerSecond: 1024,
    keepAliveTimeoutMs: 5_000,
    maxConnectionsPerAddress: 256,
  });
  const c = loadConfig({
    DATA_DIR: dir,
    HTTP_HEADERS_TIMEOUT_MS: '5000',
    HTTP_BODY_TIMEOUT_MS: '60000',
    HTTP_BODY_MIN_BYTES_PER_SECOND: '0',
    HTTP_KEEP_ALIVE_TIMEOUT_MS: '75000',
    HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0',
  });
  expect(c.http).toEqual({ headersTimeoutMs: 5000, bodyTimeoutMs: 60_000, bodyMinBytesPerSecond: 0, keepAliveTimeoutMs: 75_000, maxConnectionsPerAddress: 0 });
  // Behind a load balancer every connection comes from the balancer, which keeps them open for up to a minute.
  expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: 'true' }).http).toMatchObject({ maxConnectionsPerAddress: 0, keepAliveTimeoutMs: 75_000 });
  expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: 'true', HTTP_MAX_CONNECTIONS_PER_ADDRESS: '1000' }).http.maxConnectionsPerAddress).toBe(1000);
});

test.each([
  ['HTTP_HEADERS_TIMEOUT_MS', '0', /HTTP_HEADERS_TIMEOUT_MS must be a positive integer/],
  ['HTTP_BODY_TIMEOUT_MS', '1.5', /HTTP_BODY_TIMEOUT_MS must be a non-negative integer/],
  ['HTTP_KEEP_ALIVE_TIMEOUT_MS', '0', /HTTP_KEEP_ALIVE_TIMEOUT_MS must be a positive integer/],
  ['HTTP_BODY_MIN_BYTES_PER_SECOND', '-1', /HTTP_BODY_MIN_BYTES_PER_SECOND/],
  ['HTTP_MAX_CONNECTIONS_PER_ADDRESS', 'lots', /HTTP_MAX_CONNECTIONS_PER_ADDRESS/],
  ['PORT', 'abc', /PORT must be a non-negative integer/],
  ['MAX_UPLOAD_BYTES', '-1', /MAX_UPLOAD_BYTES/],
  ['SITE_RUNTIME', 'kubernetes', /SITE_RUNTIME must be "process" or "docker"/],
])('%s=%s is refused at start', (name, value, message) => {
  expect(() => loadConfig({ DATA_DIR: tmp(), [name]: value })).toThrow(message);
});

test('the version health reports is package.json\'s', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
  expect(loadConfig({ DATA_DIR: tmp(), npm_package_version: '9.9.9' }).version).toBe(pkg.version);
});

test('LOG_FORMAT: auto by default, json when asked or in production, anything else refused', () => {
  const dir = tmp();
  expect(loadConfig({ DATA_DIR: dir }).logFormat).toBe('auto');
  expect(loadConfig({ DATA_DIR: dir, LOG_FORMAT: 'json' }).logFormat).toBe('json');
  expect(loadConfig({ DATA_DIR: dir, NODE_ENV: 'production' }).logFormat).toBe('json');
  expect(loadConfig({ DATA_DIR: dir, NODE_ENV: 'production', LOG_FORMAT: 'auto' }).logFormat).toBe('json');
  expect(() => loadConfig({ DATA_DIR: dir, LOG_FORMAT: 'pretty' })).toThrow('LOG_FORMAT must be "json" or "auto", got "pretty"');
});

test('SITE_RUNNER: lease on PostgreSQL, local on PGlite, or as set; INSTANCE_URL is this instance\'s http origin', () => {
  const dir = tmp();
  expect(loadConfig({ DATA_DIR: dir, PORT: '4000' })).toMatchObject({ siteRunner: 'local', instanceUrl: 'http://127.0.0.1:4000' });
  expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://db/x' }).siteRunner).toBe('lease');
  expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://db/x', SITE_RUNNER: 'gateway', INSTANCE_URL: 'http://10.0.0.5:3000/' })).toMatchObject({ siteRunner: 'gateway', instanceUrl: 'http://10.0.0.5:3000' });
  expect(() => loadConfig({ DATA_DIR: dir, SITE_RUNNER: 'everywhere' })).toThrow('SITE_RUNNER must be "local", "lease" or "gateway", got "everywhere"');
  expect(() => loadConfig({ DATA_DIR: dir, INSTANCE_URL: 'https://10.0.0.5' })).toThrow(/INSTANCE_URL must be an http:\/\/ URL/);
  expect(() => loadConfig({ DATA_DIR: dir, INSTANCE_URL: 'http://10.0.0.5:3000/api' })).toThrow(/INSTANCE_URL must be an http:\/\/ URL/);
  expect(() => loadConfig({ DATA_DIR: dir, INSTANCE_URL: '10.0.0.5:3000' })).toThrow(/INSTANCE_URL must be an http:\/\/ URL/);
});
