// The DKIM key export to the mail host (dkim-export.ts): OpenDKIM's KeyTable and SigningTable
// and one 0600 key file per verified domain, stale ones removed, OpenDKIM signalled to reload;
// and through the app: written after a verification and after a verified domain's removal.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeDkimKeys } from '../../server/src/modules/mail/dkim-export';
import { buildTestApp, registerDeveloper } from '../helpers/app';
import { createProject } from '../storage/helpers';
import { startTestDns } from './dns-server';

jest.setTimeout(60_000);

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-dkim-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const read = (f: string) => fs.readFileSync(path.join(dir, f), 'utf8');

test('writes the tables and 0600 key files; a domain no longer listed loses its key file', () => {
  writeDkimKeys([
    { domain: 'shop.example', selector: 'hb202611', privateKeyPem: 'PEM-1' },
    { domain: 'b.example', selector: 'hb202610', privateKeyPem: 'PEM-2' },
  ], { dir });
  const keyFile = path.join(dir, 'keys', 'shop.example.hb202611.private');
  expect(read('KeyTable')).toBe(`hb202611._domainkey.shop.example shop.example:hb202611:${keyFile}\nhb202610._domainkey.b.example b.example:hb202610:${path.join(dir, 'keys', 'b.example.hb202610.private')}\n`);
  expect(read('SigningTable')).toBe('*@shop.example hb202611._domainkey.shop.example\n*@b.example hb202610._domainkey.b.example\n');
  expect(fs.readFileSync(keyFile, 'utf8')).toBe('PEM-1');
  expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);

  writeDkimKeys([{ domain: 'b.example', selector: 'hb202610', privateKeyPem: 'PEM-2' }], { dir });
  expect(fs.readdirSync(path.join(dir, 'keys'))).toEqual(['b.example.hb202610.private']);
  expect(read('SigningTable')).toBe('*@b.example hb202610._domainkey.b.example\n');
});

test('names that are not a domain or a selector are left out of the tables', () => {
  writeDkimKeys([{ domain: 'x.example com', selector: 'hb1', privateKeyPem: 'P' }, { domain: 'ok.example', selector: '../x', privateKeyPem: 'P' }], { dir });
  expect(read('KeyTable')).toBe('\n');
  expect(fs.readdirSync(path.join(dir, 'keys'))).toEqual([]);
});

test('signals the process in the pid file (SIGUSR1) and ignores a missing or stale pid file', async () => {
  // The child says when its handler is in place: a SIGUSR1 before that would open Node's
  // inspector instead (a loaded machine can take seconds to start a process).
  const child = spawn(process.execPath, ['-e', "process.on('SIGUSR1', () => { console.log('reload'); process.exit(0) }); console.log('ready'); setInterval(() => {}, 1000)"], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const ready = new Promise<void>((resolve) => child.stdout.on('data', (d) => ((out += d), out.includes('ready') && resolve())));
  const exited = new Promise((r) => child.on('exit', r));
  const pidFile = path.join(dir, 'opendkim.pid');
  try {
    await ready;
    out = '';
    fs.writeFileSync(pidFile, `${child.pid}\n`);
    writeDkimKeys([], { dir, pidFile });
    await exited;
  } finally {
    child.kill('SIGKILL'); // whatever happened, no process outlives the test (jest would wait for it)
  }
  expect(out.trim()).toBe('reload');
  expect(() => writeDkimKeys([], { dir, pidFile: path.join(dir, 'missing.pid') })).not.toThrow();
  expect(() => writeDkimKeys([], { dir, pidFile })).not.toThrow(); // that process is gone
});

test('the app (MAIL_DKIM_DIR set) writes the key after a verification, and drops it when the domain is removed', async () => {
  const dns = await startTestDns();
  const t = await buildTestApp({ PLATFORM_DOMAIN: 'hostbase.test', DNS_SERVERS: dns.server, MAIL_DKIM_DIR: dir });
  try {
    const dev = await registerDeveloper(t);
    const project = await createProject(t, dev);
    const smtp = (op: string, body: unknown) => t.post(`/project/${project.id}/smtp/${op}`, body, dev.token);
    expect((await smtp('add_domain', { domain: 'shop.example' })).statusCode).toBe(200);
    expect(fs.existsSync(path.join(dir, 'KeyTable'))).toBe(false); // not verified: nothing to sign with
    const records = (await smtp('smtp_domain_details', { project_id: project.id })).json().dnsRecords as { type: string; host: string; value: string; priority?: number }[];
    dns.publish('shop.example', records);
    expect((await smtp('smtp_domain_verify', { domain: 'shop.example' })).json()).toEqual({ message: 'verified' });
    const [selector] = records.filter((r) => r.host.endsWith('._domainkey')).map((r) => r.host.split('.')[0]);
    const keyFile = path.join(dir, 'keys', `shop.example.${selector}.private`);
    expect(read('SigningTable')).toBe(`*@shop.example ${selector}._domainkey.shop.example\n`);
    const [row] = await t.database.query<{ k: string }>('SELECT dkim_private_key AS k FROM smtp_domains');
    expect(fs.readFileSync(keyFile, 'utf8')).toBe(t.app.deps.secrets.open(row.k));
    expect((await smtp('remove_domain', { domain: 'shop.example' })).statusCode).toBe(200);
    expect(read('KeyTable')).toBe('\n');
    expect(fs.existsSync(keyFile)).toBe(false);
  } finally {
    await t.close();
    await dns.close();
  }
});
