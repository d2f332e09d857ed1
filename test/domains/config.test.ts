// The custom-domain settings of the config: ACME_DIRECTORY_URL, ACME_EMAIL, ACME_CA_FILE,
// HTTPS_PORT (off when unset) and CUSTOM_DOMAIN_ADDRESSES; anything malformed refused at start.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/src/config';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-domaincfg-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dir, JWT_SECRET: 's', ...env }).domains;

test('defaults: Let\'s Encrypt, no HTTPS port, no addresses', () => {
  expect(load({})).toEqual({ acmeDirectoryUrl: 'https://acme-v02.api.letsencrypt.org/directory', acmeEmail: undefined, acmeCaFile: undefined, httpsPort: undefined, addresses: [] });
});

test('as given', () => {
  expect(load({ ACME_DIRECTORY_URL: 'https://127.0.0.1:14000/dir', ACME_EMAIL: 'ops@example.com', ACME_CA_FILE: '/etc/pebble.pem', HTTPS_PORT: '8443', CUSTOM_DOMAIN_ADDRESSES: '203.0.113.7, 2001:db8::7' })).toEqual({
    acmeDirectoryUrl: 'https://127.0.0.1:14000/dir',
    acmeEmail: 'ops@example.com',
    acmeCaFile: '/etc/pebble.pem',
    httpsPort: 8443,
    addresses: ['203.0.113.7', '2001:db8::7'],
  });
});

test.each([
  [{ HTTPS_PORT: 'x' }, /HTTPS_PORT/],
  [{ HTTPS_PORT: '70000' }, /HTTPS_PORT/],
  [{ CUSTOM_DOMAIN_ADDRESSES: 'host.example.com' }, /CUSTOM_DOMAIN_ADDRESSES/],
  [{ ACME_DIRECTORY_URL: 'http://ca.example/dir' }, /ACME_DIRECTORY_URL must be an https URL/],
])('%j is refused at start', (env, message) => {
  expect(() => load(env as Record<string, string>)).toThrow(message);
});
