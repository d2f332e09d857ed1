// kill -9 of a real server while mailboxes are being added and a password changed (hosted mail,
// the smtp module), then a restart: every mailbox whose creation was answered is there, none is
// half-made (an unanswered one is either whole or absent: adding it again works or says it
// exists, and it signs in with the password it was given only through the mail servers, so here:
// it lists as active with its quota), and the domain is still verified.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, testDriver, urlWithDatabase, type TestDatabase } from '../helpers/test-db';
import { startTestDns, type TestDns } from '../mail/dns-server';
import { freePort, post, Server } from './process';

jest.setTimeout(240_000);

const DOMAIN = 'crash-mail.example';
const PASSWORD = 'Abcdefg1!';

let pg: TestDatabase | undefined;
let dns: TestDns | undefined;
let dataDir: string;
let server: Server | undefined;
afterAll(async () => {
  await server?.kill9();
  await dns?.close();
  await pg?.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test('kill -9 during mailbox changes: after a restart every answered change is there and nothing is half-made', async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-crash-mail-'));
  pg = testDriver() === 'postgres' ? await createTestDatabase() : undefined;
  dns = await startTestDns();
  server = new Server(await freePort(), {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PASSWORD_HASH_COST: '12',
    PUBLIC_URL: 'http://localhost',
    PLATFORM_DOMAIN: 'hostbase.test',
    DNS_SERVERS: dns.server,
    ...(pg ? { DATABASE_URL: urlWithDatabase(process.env.DATABASE_URL!, pg.name) } : {}),
  });
  await server.start();
  const { port } = server;

  const reg = await post(port, '/register', { name: 'Mail', email: 'mail@example.com', password: 'correct horse battery' });
  expect(reg.status).toBe(200);
  const token = reg.json<{ token: string }>().token;
  const created = await post(port, '/create-project', { projectName: 'Mail', subdomain: 'crash-mail' }, token);
  const projectId = created.json<{ project: { id: string } }>().project.id;
  const smtp = (op: string, body: unknown) => post(port, `/project/${projectId}/smtp/${op}`, body, token);
  expect((await smtp('add_domain', { domain: DOMAIN })).status).toBe(200);
  const details = (await smtp('smtp_domain_details', { project_id: projectId })).json<{ dnsRecords: never[] }>();
  dns.publish(DOMAIN, details.dnsRecords);
  expect((await smtp('smtp_domain_verify', { domain: DOMAIN })).json()).toEqual({ message: 'verified' });
  // Committed before the kill.
  expect((await smtp('add_account', { email: 'kept', domain: DOMAIN, password: PASSWORD })).status).toBe(200);

  // In flight at the kill: four more mailboxes (the Hobby plan's five in all) and a password change.
  const names = ['m1', 'm2', 'm3', 'm4'];
  const answered = new Map<string, number>();
  const inFlight = [
    ...names.map((n) => smtp('add_account', { email: n, domain: DOMAIN, password: PASSWORD }).then((r) => void answered.set(n, r.status), () => undefined)),
    smtp('change_pass', { email: `kept@${DOMAIN}`, password: 'Zyxwvut9!' }).then((r) => void answered.set('change_pass', r.status), () => undefined),
  ];
  // Kill as soon as the first answer is back (the others are hashing or writing), or after 300 ms.
  await Promise.race([Promise.race(inFlight), new Promise((r) => setTimeout(r, 300))]);
  await server.kill9();
  await Promise.all(inFlight);

  await server.start();
  const listed = (await smtp('accounts', { domain: DOMAIN })).json<{ email: string; status: string; active: boolean; quota: number }[]>();
  const emails = listed.map((a) => a.email).sort();
  // Every answered creation is there; nothing but the requested ones.
  expect(emails).toContain(`kept@${DOMAIN}`);
  for (const [name, status] of answered) if (name !== 'change_pass' && status === 200) expect(emails).toContain(`${name}@${DOMAIN}`);
  for (const e of emails) expect(['kept', ...names].map((n) => `${n}@${DOMAIN}`)).toContain(e);
  // Each listed mailbox is whole: active with its quota.
  for (const a of listed) expect(a).toMatchObject({ status: 'active', active: true, quota: expect.any(Number) });
  // An unanswered one is absent or whole: adding it again creates it or says it exists, never a 500.
  for (const n of names) {
    const again = await smtp('add_account', { email: n, domain: DOMAIN, password: PASSWORD });
    if (emails.includes(`${n}@${DOMAIN}`)) expect(again.status).toBe(409);
    else expect(again.status).toBe(200);
  }
  // The domain is still verified, and the mailbox the password change was about still changes.
  expect((await smtp('smtp_domain_details', { project_id: projectId })).json()).toMatchObject({ domain: DOMAIN, verified: true });
  expect(answered.get('change_pass') ?? 200).toBe(200);
  expect((await smtp('change_pass', { email: `kept@${DOMAIN}`, password: 'Zyxwvut9!' })).status).toBe(200);
  await server.kill9();
});
