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

test.each([
  ['PORT', 'abc', /PORT must be a non-negative integer/],
  ['MAX_UPLOAD_BYTES', '-1', /MAX_UPLOAD_BYTES/],
  ['SITE_RUNTIME', 'kubernetes', /SITE_RUNTIME must be "process" or "docker"/],
])('%s=%s is refused at start', (name, value, message) => {
  expect(() => loadConfig({ DATA_DIR: tmp(), [name]: value })).toThrow(message);
});
