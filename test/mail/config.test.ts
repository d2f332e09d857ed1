// The mail settings of the config: MAIL_HOST (default mail.{PLATFORM_DOMAIN}), DNS_SERVERS (IP
// addresses with optional ports; anything else refused at start) and WEBMAIL_URL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/src/config';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-mailcfg-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dir, JWT_SECRET: 's', ...env });

test('defaults: the mail host under the platform domain, the system resolvers, no webmail link', () => {
  expect(load({})).toMatchObject({ mailHost: 'mail.localhost', dnsServers: undefined, webmailUrl: undefined });
  expect(load({ PLATFORM_DOMAIN: 'Apps.Example.com' }).mailHost).toBe('mail.apps.example.com');
});

test('MAIL_HOST, DNS_SERVERS and WEBMAIL_URL as given', () => {
  expect(load({ MAIL_HOST: 'MX1.Example.net.', DNS_SERVERS: '127.0.0.1:5300, 10.0.0.2,[::1]:53,::1', WEBMAIL_URL: 'https://webmail.example.net' })).toMatchObject({
    mailHost: 'mx1.example.net',
    dnsServers: ['127.0.0.1:5300', '10.0.0.2', '[::1]:53', '::1'],
    webmailUrl: 'https://webmail.example.net',
  });
});

test.each(['dns.example.com', '127.0.0.1:0', '127.0.0.1:70000', '1.2.3', '[::1', '127.0.0.1:53:53'])('DNS_SERVERS=%j is refused at start', (value) => {
  expect(() => load({ DNS_SERVERS: value })).toThrow(/^DNS_SERVERS must be IP addresses with an optional port/);
});

test('MAIL_DKIM_DIR and MAIL_DKIM_PID_FILE: absent, no key export; else as given', () => {
  expect(load({})).toMatchObject({ mailDkimDir: undefined, mailDkimPidFile: undefined });
  expect(load({ MAIL_DKIM_DIR: '/var/lib/m/dkim', MAIL_DKIM_PID_FILE: '/run/opendkim.pid' })).toMatchObject({ mailDkimDir: '/var/lib/m/dkim', mailDkimPidFile: '/run/opendkim.pid' });
});

test('MAIL_PROJECT_SMTP_URL as given; the mail servers are attached with DATABASE_URL and MAIL_DKIM_DIR or MAIL_PROJECT_SMTP_URL', () => {
  expect(load({})).toMatchObject({ mailProjectSmtpUrl: undefined, mailServersAttached: false });
  const url = 'smtp://127.0.0.1:2587?ignoreTLS=true';
  expect(load({ MAIL_PROJECT_SMTP_URL: url })).toMatchObject({ mailProjectSmtpUrl: url, mailServersAttached: false });
  expect(load({ MAIL_DKIM_DIR: '/var/lib/m/dkim' }).mailServersAttached).toBe(false);
  const db = 'postgres://db/hostbase';
  expect(load({ DATABASE_URL: db }).mailServersAttached).toBe(false);
  expect(load({ DATABASE_URL: db, MAIL_DKIM_DIR: '/var/lib/m/dkim' }).mailServersAttached).toBe(true);
  expect(load({ DATABASE_URL: db, MAIL_PROJECT_SMTP_URL: url }).mailServersAttached).toBe(true);
});
