// The smtp operations through the real app, with DNS answered by a local authoritative server
// (dns2 on 127.0.0.1, DNS_SERVERS pointing at it): domains, their records and verification,
// mailboxes on a verified domain, every validation text, and the caller checks (no token: 401;
// another account's token: 404, nothing learned, nothing changed).
import { onPlan } from '../helpers/factories';
import crypto from 'node:crypto';
import { buildTestApp, registerDeveloper, type Developer, type TestApp } from '../helpers/app';
import { createProject, type Project } from '../storage/helpers';
import { verifyMailboxPassword } from '../../server/src/modules/mail/mailbox-password';
import { startTestDns, txtStrings, type TestDns } from './dns-server';

jest.setTimeout(60_000);

let t: TestApp;
let dns: TestDns;
let dev: Developer;
let other: Developer;
let project: Project;
let otherProject: Project;

const DOMAIN = 'shop.example';
const INVALID_DOMAIN = 'Please enter a valid domain name (e.g., example.com)';
const GOOD_PASSWORD = 'Abcdefg1!';

beforeAll(async () => {
  dns = await startTestDns();
  t = await buildTestApp({ PLATFORM_DOMAIN: 'hostbase.test', DNS_SERVERS: dns.server, WEBMAIL_URL: 'https://webmail.hostbase.test' });
  dev = await registerDeveloper(t);
  await onPlan(t, dev, 'enterprise'); // more projects than Hobby's 3: this file is not about plan limits
  other = await registerDeveloper(t);
  await onPlan(t, other, 'enterprise'); // more projects than Hobby's 3: this file is not about plan limits
  project = await createProject(t, dev);
  otherProject = await createProject(t, other);
});
afterAll(async () => {
  await t?.close();
  await dns?.close();
});

/** POST /api/project/{id}/smtp/{op}; token null: no Authorization header. */
const smtp = (op: string, body: unknown, token: string | null = dev.token, projectId = project.id) => t.post(`/project/${projectId}/smtp/${op}`, body, token ?? undefined);

interface Record_ {
  type: string;
  host: string;
  value: string;
  priority?: number;
  ttl: number;
  purpose?: string;
  verified?: boolean;
}
const details = async (token = dev.token, projectId = project.id) => (await smtp('smtp_domain_details', { project_id: projectId }, token, projectId)).json() as { domain: string | null; date: string | null; verified: boolean; dnsRecords: Record_[]; webmail_url?: string };

/** Publishes the records the platform asks for in the local DNS (DKIM as strings of ≤ 255 bytes). */
const publish = (domain: string, records: Record_[], skip: string[] = []) => dns.publish(domain, records, skip);

const count = async (sql: string, params: unknown[] = []) => Number((await t.database.query<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, params))[0].n);
const rowsOf = async () => ({ domains: await count('smtp_domains'), accounts: await count('mail_accounts') });

function expectMessage(res: { statusCode: number; json(): { message: string } }, status: number, message: string | RegExp) {
  expect({ status: res.statusCode, message: res.json().message }).toEqual({ status, message: typeof message === 'string' ? message : expect.stringMatching(message) });
}

/** Operations whose body has no mail rule (the mailbox is looked up, a bad address is a 404). */
const OP_WITHOUT_BODY_RULES = new Set(['smtp_domain_details', 'remove_account']);

const OPS: [string, Record<string, unknown>][] = [
  ['add_domain', { domain: 'caller.example' }],
  ['smtp_domain_details', {}],
  ['smtp_domain_verify', { domain: DOMAIN }],
  ['remove_domain', { domain: DOMAIN }],
  ['accounts', { domain: DOMAIN }],
  ['add_account', { email: 'x', domain: DOMAIN, password: GOOD_PASSWORD }],
  ['remove_account', { email: `x@${DOMAIN}` }],
  ['change_pass', { email: `x@${DOMAIN}`, password: GOOD_PASSWORD }],
];

describe('before any domain', () => {
  it('details say there is none', async () => {
    expect(await details()).toEqual({ domain: null, date: null, verified: false, dnsRecords: [], webmail_url: 'https://webmail.hostbase.test', mail_servers_attached: false });
  });

  it('add_domain refuses what is not a domain with the SPEC texts (400), and writes nothing', async () => {
    for (const domain of ['', '   ']) expectMessage(await smtp('add_domain', { domain }), 400, 'Domain name is required');
    for (const domain of ['localhost', 'example.c', 'exa mple.com', '-a.example', 'a_b.example', 'ex..example', '<b>.example', 'a.example/x', 'u@a.example', 'a.example:25', "a.example' OR 1=1--", 'a\u200b.example', '1.2.3.4'])
      expectMessage(await smtp('add_domain', { domain }), 400, INVALID_DOMAIN);
    for (const domain of ['hostbase.test', 'mail.hostbase.test', 'site.hostbase.test']) expectMessage(await smtp('add_domain', { domain }), 409, 'This domain is reserved by the platform');
    expect(await rowsOf()).toEqual({ domains: 0, accounts: 0 });
  });

  it('the other operations answer 404 for a domain the project does not have', async () => {
    for (const [op, body] of OPS.filter(([op]) => !['add_domain', 'smtp_domain_details'].includes(op))) {
      expect({ op, status: (await smtp(op, body)).statusCode }).toEqual({ op, status: 404 });
    }
  });
});

describe('a domain, its records and verification', () => {
  it('adds the domain (trimmed, lower case, trailing dot dropped) with a DKIM key of its own, sealed', async () => {
    expect((await smtp('add_domain', { domain: '  Shop.EXAMPLE. ' })).json()).toEqual({ message: 'added' });
    const d = await details();
    expect(d).toMatchObject({ domain: DOMAIN, verified: false, date: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), webmail_url: 'https://webmail.hostbase.test' });
    expect(d.dnsRecords.map(({ type, host, priority, ttl, verified }) => ({ type, host, priority, ttl, verified }))).toEqual([
      { type: 'MX', host: '@', priority: 10, ttl: 3600, verified: undefined },
      { type: 'TXT', host: '@', priority: undefined, ttl: 3600, verified: undefined },
      { type: 'TXT', host: '_dmarc', priority: undefined, ttl: 3600, verified: undefined },
      { type: 'TXT', host: expect.stringMatching(/^hb\d{6}\._domainkey$/), priority: undefined, ttl: 3600, verified: undefined },
    ]);
    const [mx, spf, dmarc, dkim] = d.dnsRecords;
    expect(mx.value).toBe('mail.hostbase.test');
    expect(spf.value).toMatch(/^v=spf1 .*\bmx\b/);
    expect(dmarc.value).toMatch(/^v=DMARC1; p=/);
    expect(dkim.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/);
    expect(dkim.value.length).toBeGreaterThan(255); // served as several strings below
    const publicKey = dkim.value.split('p=')[1];
    expect(crypto.createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' }).asymmetricKeyDetails?.modulusLength).toBe(2048);

    // The private key is stored sealed, and is the public key's other half.
    const [row] = await t.database.query<{ dkim_private_key: string; dkim_public_key: string }>('SELECT dkim_private_key, dkim_public_key FROM smtp_domains WHERE domain = $1', [DOMAIN]);
    expect(row.dkim_private_key).not.toMatch(/PRIVATE KEY/);
    const pem = t.app.deps.secrets.open(row.dkim_private_key);
    expect(crypto.createPublicKey(pem).export({ type: 'spki', format: 'der' }).toString('base64')).toBe(publicKey);
    expect(row.dkim_public_key).toBe(publicKey);
  });

  it('one domain per project; nothing half-written', async () => {
    expectMessage(await smtp('add_domain', { domain: 'shop.example' }), 409, 'This domain is already added to this project');
    expectMessage(await smtp('add_domain', { domain: 'second.example' }), 409, 'This project already has a domain (shop.example); remove it to add another');
    expect(await rowsOf()).toEqual({ domains: 1, accounts: 0 });
  });

  it('an unverified name is nobody\'s yet: another project can claim it too, with a DKIM key of its own', async () => {
    expect((await smtp('add_domain', { domain: 'SHOP.example' }, other.token, otherProject.id)).json()).toEqual({ message: 'added' });
    const mine = (await details()).dnsRecords[3].value;
    const theirs = (await details(other.token, otherProject.id)).dnsRecords[3].value;
    expect(theirs).not.toBe(mine);
    expect((await smtp('remove_domain', { domain: DOMAIN }, other.token, otherProject.id)).json()).toEqual({ message: 'removed' });
    expect(await rowsOf()).toEqual({ domains: 1, accounts: 0 });
  });

  it('mailboxes wait for verification (409)', async () => {
    expectMessage(await smtp('accounts', { domain: DOMAIN }), 409, 'Verify the domain before managing its mailboxes');
    expectMessage(await smtp('add_account', { email: 'ada', domain: DOMAIN, password: GOOD_PASSWORD }), 409, 'Verify the domain before managing its mailboxes');
    expectMessage(await smtp('remove_account', { email: `ada@${DOMAIN}` }), 409, 'Verify the domain before managing its mailboxes');
    expectMessage(await smtp('change_pass', { email: `ada@${DOMAIN}`, password: GOOD_PASSWORD }), 409, 'Verify the domain before managing its mailboxes');
    expect(await rowsOf()).toEqual({ domains: 1, accounts: 0 });
  });

  it('verify names every record that is missing', async () => {
    const d = await details();
    const selector = d.dnsRecords[3].host;
    const res = await smtp('smtp_domain_verify', { domain: DOMAIN });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(
      `Not verified: MX record at @ was not found; TXT (SPF) record at @ was not found; TXT (DMARC) record at _dmarc was not found; TXT (DKIM) record at ${selector} was not found. DNS changes can take up to 48 hours to propagate.`,
    );
    // Each one alone.
    for (const kind of ['mx', 'spf', 'dmarc', 'dkim']) {
      publish(DOMAIN, d.dnsRecords, [kind]);
      const label = { mx: 'MX record at @', spf: 'TXT (SPF) record at @', dmarc: 'TXT (DMARC) record at _dmarc', dkim: `TXT (DKIM) record at ${selector}` }[kind];
      expectMessage(await smtp('smtp_domain_verify', { domain: DOMAIN }), 200, `Not verified: ${label} was not found. DNS changes can take up to 48 hours to propagate.`);
      // The details show which record the last check missed.
      expect((await details()).dnsRecords.map((r) => r.verified)).toEqual(['mx', 'spf', 'dmarc', 'dkim'].map((k) => k !== kind));
    }
    expect((await details()).verified).toBe(false);
  });

  it('verify names every record that is wrong', async () => {
    const d = await details();
    const selector = d.dnsRecords[3].host;
    const otherKey = (await import('../../server/src/modules/mail/dkim')).generateDkimKey();
    dns.set(DOMAIN, [{ type: 'MX', exchange: 'mx.elsewhere.example', priority: 10 }, { type: 'TXT', data: 'v=spf1 include:_spf.elsewhere.example -all' }, { type: 'TXT', data: 'google-site-verification=abc' }]);
    dns.set(`_dmarc.${DOMAIN}`, [{ type: 'TXT', data: 'hello' }]);
    dns.set(`${selector}.${DOMAIN}`, [{ type: 'TXT', data: txtStrings(`v=DKIM1; k=rsa; p=${(await otherKey).publicKey}`) }]);
    expectMessage(
      await smtp('smtp_domain_verify', { domain: DOMAIN }),
      200,
      'Not verified: MX record at @ points to mx.elsewhere.example, not mail.hostbase.test; TXT (SPF) record at @ does not allow the mail host (publish "v=spf1 mx -all"); ' +
        `TXT (DMARC) record at _dmarc does not start with v=DMARC1; TXT (DKIM) record at ${selector} has a different public key. DNS changes can take up to 48 hours to propagate.`,
    );
    expect((await details()).verified).toBe(false);
  });

  it('verify of a domain that is not the project\'s: 404, or the SPEC texts for a bad name', async () => {
    expect((await smtp('smtp_domain_verify', { domain: 'other.example' })).statusCode).toBe(404);
    expectMessage(await smtp('smtp_domain_verify', { domain: '' }), 400, 'Domain name is required');
    expectMessage(await smtp('smtp_domain_verify', { domain: 'nope' }), 400, INVALID_DOMAIN);
  });

  it('"verified" once every record is published (the DKIM key as several strings); the details say so', async () => {
    const d = await details();
    publish(DOMAIN, d.dnsRecords);
    // Other records beside ours don't matter.
    dns.zone.get(DOMAIN)!.push({ type: 'TXT', data: 'google-site-verification=abc' }, { type: 'MX', exchange: 'backup.elsewhere.example', priority: 20 });
    const res = await smtp('smtp_domain_verify', { domain: 'Shop.Example' });
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 200, body: { message: 'verified' } });
    const after = await details();
    expect(after.verified).toBe(true);
    expect(after.dnsRecords.every((r) => r.verified === true)).toBe(true);
    expect(dns.queries).toEqual(expect.arrayContaining([`${DOMAIN} ${15}`, `_dmarc.${DOMAIN} 16`]));

    // A record gone later (or a DNS outage) doesn't stop a verified domain's mail; verify says what is wrong.
    const saved = dns.zone.get(`_dmarc.${DOMAIN}`)!;
    dns.zone.delete(`_dmarc.${DOMAIN}`);
    expectMessage(await smtp('smtp_domain_verify', { domain: DOMAIN }), 200, 'The domain stays verified, but: TXT (DMARC) record at _dmarc was not found. DNS changes can take up to 48 hours to propagate.');
    expect((await details()).verified).toBe(true);
    expect((await details()).dnsRecords.map((r) => r.verified)).toEqual([true, true, false, true]);
    dns.zone.set(`_dmarc.${DOMAIN}`, saved);
    expect((await smtp('smtp_domain_verify', { domain: DOMAIN })).json()).toEqual({ message: 'verified' });
  });
});

describe('mailboxes on the verified domain', () => {
  it('lists none at first', async () => {
    expect((await smtp('accounts', { domain: DOMAIN })).json()).toEqual([]);
  });

  it('add_account: the username and password rules, in the SPEC order, with its texts; nothing written', async () => {
    const add = (email: string, password = GOOD_PASSWORD) => smtp('add_account', { email, domain: DOMAIN, password });
    for (const email of ['', '  ', '@shop.example', 'a b', 'a+b', '.ada', 'ädä', '<script>']) expectMessage(await add(email), 400, 'Please enter a valid username');
    // The username is checked before the password.
    expectMessage(await add('', 'x'), 400, 'Please enter a valid username');
    const passwords: [string, string][] = [
      ['', 'Password must be at least 8 characters'],
      ['Ab1!', 'Password must be at least 8 characters'],
      ['abcdefg1!', 'Must contain one uppercase letter'],
      ['ABCDEFG1!', 'Must contain one lowercase letter'],
      ['Abcdefgh!', 'Must contain one number'],
      ['Abcdefg12', 'Must contain one special character'],
    ];
    for (const [password, message] of passwords) expectMessage(await add('ada', password), 400, message);
    expect(await rowsOf()).toEqual({ domains: 1, accounts: 0 });
  });

  it('creates a mailbox (username before any @), 5 GiB, active, with a hash Dovecot verifies; a duplicate is refused', async () => {
    const res = await smtp('add_account', { email: 'Ada@whatever.example', domain: DOMAIN, password: GOOD_PASSWORD });
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 200, body: { message: 'created' } });
    const list = (await smtp('accounts', { domain: DOMAIN })).json();
    expect(list).toEqual([{ email: 'ada@shop.example', created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), status: 'active', active: true, quota: 5368709120 }]);
    const [row] = await t.database.query<{ password_hash: string; quota_bytes: string }>('SELECT password_hash, quota_bytes FROM mail_accounts WHERE email = $1', ['ada@shop.example']);
    expect(row.password_hash).toMatch(/^\{ARGON2ID\}\$argon2id\$v=19\$m=65536,t=3,p=1\$/);
    expect(await verifyMailboxPassword(GOOD_PASSWORD, row.password_hash)).toBe(true);
    expect(Number(row.quota_bytes)).toBe(5 * 1024 ** 3);
    for (const email of ['ada', 'ADA', ' ada@shop.example']) expectMessage(await smtp('add_account', { email, domain: DOMAIN, password: GOOD_PASSWORD }), 409, 'This email already exists');
    expect(await rowsOf()).toEqual({ domains: 1, accounts: 1 });
  });

  it('the mail servers\' views show the verified domain and its mailboxes', async () => {
    expect(await t.database.query('SELECT domain FROM mail_domains_view')).toEqual([{ domain: DOMAIN }]);
    const users = await t.database.query<Record<string, unknown>>('SELECT email, domain, local_part, quota_bytes, active, password_hash FROM mail_users_view');
    expect(users).toEqual([{ email: 'ada@shop.example', domain: DOMAIN, local_part: 'ada', quota_bytes: expect.anything(), active: true, password_hash: expect.stringMatching(/^\{ARGON2ID\}/) }]);
  });

  it('change_pass: the same rules; unknown or foreign addresses are 404; the new password replaces the old', async () => {
    const [before] = await t.database.query<{ password_hash: string }>('SELECT password_hash FROM mail_accounts');
    expectMessage(await smtp('change_pass', { email: 'ada@shop.example', password: 'abcdefg1!' }), 400, 'Must contain one uppercase letter');
    expectMessage(await smtp('change_pass', { email: 'ada@shop.example', password: 'short' }), 400, 'Password must be at least 8 characters');
    for (const email of ['bob@shop.example', 'ada@other.example', 'ada@shop.example@x', '@shop.example', 'a b'])
      expect({ email, status: (await smtp('change_pass', { email, password: 'Zyxwvut9#' })).statusCode }).toEqual({ email, status: 404 });
    expect((await t.database.query<{ password_hash: string }>('SELECT password_hash FROM mail_accounts'))[0].password_hash).toBe(before.password_hash);

    const res = await smtp('change_pass', { email: 'ADA@Shop.Example', password: 'Zyxwvut9#' });
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 200, body: { message: 'changed' } });
    const [after] = await t.database.query<{ password_hash: string; updated_at: Date; created_at: Date }>('SELECT password_hash, updated_at, created_at FROM mail_accounts');
    expect(await verifyMailboxPassword('Zyxwvut9#', after.password_hash)).toBe(true);
    expect(await verifyMailboxPassword(GOOD_PASSWORD, after.password_hash)).toBe(false);
    expect(new Date(after.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(after.created_at).getTime());
  });

  it('malformed bodies are 400s (never 500) and write nothing', async () => {
    const before = await rowsOf();
    const bodies: [string, unknown][] = [
      ['add_domain', {}], ['add_domain', { domain: 5 }], ['add_domain', { domain: null }], ['add_domain', { domain: ['a.example'] }], ['add_domain', { domain: 'a'.repeat(300) + '.example' }],
      ['add_domain', { domain: 'a\u0000.example' }], ['add_domain', '"shop.example"'],
      ['smtp_domain_verify', {}], ['smtp_domain_verify', { domain: { a: 1 } }],
      ['remove_domain', {}], ['remove_domain', { domain: 1 }],
      ['accounts', {}], ['accounts', { domain: true }],
      ['add_account', { email: 'bob', domain: DOMAIN }], ['add_account', { email: 'bob', password: GOOD_PASSWORD }], ['add_account', { email: 7, domain: DOMAIN, password: GOOD_PASSWORD }],
      ['add_account', { email: 'bob', domain: DOMAIN, password: 12345678 }], ['add_account', { email: 'bob', domain: DOMAIN, password: 'Aa1!' + 'x'.repeat(1100) }],
      ['add_account', { email: 'b\u0000ob', domain: DOMAIN, password: GOOD_PASSWORD }], ['add_account', { email: 'bob', domain: DOMAIN, password: 'Abcdefg1!\ud800' }],
      ['remove_account', {}], ['remove_account', { email: '' }], ['remove_account', { email: ['ada'] }],
      ['change_pass', { email: 'ada@shop.example' }], ['change_pass', { email: 'ada@shop.example', password: null }],
    ];
    for (const [op, body] of bodies) {
      const res = await t.app.inject({ method: 'POST', url: `/api/project/${project.id}/smtp/${op}`, headers: { authorization: `Bearer ${dev.token}`, 'content-type': 'application/json' }, payload: typeof body === 'string' ? body : JSON.stringify(body) });
      expect({ op, body, status: res.statusCode }).toEqual({ op, body, status: 400 });
    }
    const broken = await t.app.inject({ method: 'POST', url: `/api/project/${project.id}/smtp/add_domain`, headers: { authorization: `Bearer ${dev.token}`, 'content-type': 'application/json' }, payload: '{"domain":' });
    expect(broken.statusCode).toBe(400);
    const text = await t.app.inject({ method: 'POST', url: `/api/project/${project.id}/smtp/add_domain`, headers: { authorization: `Bearer ${dev.token}`, 'content-type': 'text/plain' }, payload: 'x.example' });
    expect(text.statusCode).toBe(415);
    expect(await rowsOf()).toEqual(before);
    expect((await smtp('accounts', { domain: DOMAIN })).json()).toHaveLength(1);
  });
});

describe('callers', () => {
  it('no token: 401 on every operation; another account\'s token: 404 on every operation, nothing changed', async () => {
    const before = { rows: await rowsOf(), details: await details(), hash: (await t.database.query<{ password_hash: string }>('SELECT password_hash FROM mail_accounts'))[0].password_hash };
    for (const [op, body] of OPS) {
      const anonymous = await smtp(op, body, null);
      expect({ op, status: anonymous.statusCode }).toEqual({ op, status: 401 });
      const bad = await smtp(op, body, 'not-a-token');
      expect({ op, status: bad.statusCode }).toEqual({ op, status: 401 });
      const foreign = await smtp(op, { ...body, domain: DOMAIN }, other.token);
      expect({ op, status: foreign.statusCode, message: foreign.json().message }).toEqual({ op, status: 404, message: 'Project not found' });
      // The mail rules are the contract's: a body that breaks them is a 400 for any caller, from
      // the body alone (the same whatever the project: nothing learned). What depends on the
      // project (which domain it has) says nothing either: the project comes first.
      const invalid = await smtp(op, { ...body, domain: 'not a domain', email: '@', password: 'x' }, other.token);
      expect({ op, status: invalid.statusCode }).toEqual({ op, status: OP_WITHOUT_BODY_RULES.has(op) ? 404 : 400 });
      const elsewhere = await smtp(op, { ...body, domain: 'elsewhere.example' }, other.token);
      expect({ op, status: elsewhere.statusCode }).toEqual({ op, status: 404 });
      expect(JSON.stringify(foreign.json())).not.toContain(DOMAIN);
    }
    // A project id that is no project at all answers the same.
    expect((await smtp('smtp_domain_details', {}, other.token, '00000000-0000-0000-0000-000000000000')).statusCode).toBe(404);
    expect({ rows: await rowsOf(), details: await details(), hash: (await t.database.query<{ password_hash: string }>('SELECT password_hash FROM mail_accounts'))[0].password_hash }).toEqual(before);
  });
});

describe('removal', () => {
  it('remove_account by address or username; again is 404', async () => {
    expect((await smtp('add_account', { email: 'bob', domain: DOMAIN, password: GOOD_PASSWORD })).statusCode).toBe(200);
    expect((await smtp('add_account', { email: 'carol', domain: DOMAIN, password: GOOD_PASSWORD })).statusCode).toBe(200);
    expect((await smtp('remove_account', { email: 'bob@shop.example' })).json()).toEqual({ message: 'removed' });
    expect((await smtp('remove_account', { email: 'Carol' })).json()).toEqual({ message: 'removed' });
    expect((await smtp('remove_account', { email: 'bob@shop.example' })).statusCode).toBe(404);
    expect((await smtp('remove_account', { email: 'ada@other.example' })).statusCode).toBe(404);
    expect((await smtp('accounts', { domain: DOMAIN })).json().map((a: { email: string }) => a.email)).toEqual(['ada@shop.example']);
  });

  it('remove_domain takes its mailboxes with it; the name is free for another project then', async () => {
    expect((await smtp('remove_domain', { domain: 'other.example' })).statusCode).toBe(404);
    expect((await smtp('remove_domain', { domain: 'Shop.Example.' })).json()).toEqual({ message: 'removed' });
    expect(await rowsOf()).toEqual({ domains: 0, accounts: 0 });
    expect((await details()).domain).toBeNull();
    expect(await t.database.query('SELECT * FROM mail_users_view')).toEqual([]);
    expect((await smtp('remove_domain', { domain: DOMAIN })).statusCode).toBe(404);
    expect((await smtp('add_domain', { domain: DOMAIN }, other.token, otherProject.id)).json()).toEqual({ message: 'added' });
    expect((await smtp('remove_domain', { domain: DOMAIN }, other.token, otherProject.id)).json()).toEqual({ message: 'removed' });
  });

  it('an international domain is stored in its ASCII form', async () => {
    expect((await smtp('add_domain', { domain: 'Bücher.Example' })).json()).toEqual({ message: 'added' });
    expect((await details()).domain).toBe('xn--bcher-kva.example');
    expect((await smtp('remove_domain', { domain: 'bücher.example' })).json()).toEqual({ message: 'removed' });
  });

  it('deleting the project removes its domain and mailboxes', async () => {
    const owner = await registerDeveloper(t);
    const doomed = await createProject(t, owner);
    expect((await smtp('add_domain', { domain: 'doomed.example' }, owner.token, doomed.id)).statusCode).toBe(200);
    const d = await details(owner.token, doomed.id);
    publish('doomed.example', d.dnsRecords);
    expect((await smtp('smtp_domain_verify', { domain: 'doomed.example' }, owner.token, doomed.id)).json()).toEqual({ message: 'verified' });
    expect((await smtp('add_account', { email: 'dee', domain: 'doomed.example', password: GOOD_PASSWORD }, owner.token, doomed.id)).statusCode).toBe(200);
    expect(await count("smtp_domains WHERE domain = 'doomed.example'")).toBe(1);
    const del = await t.post(`/project/${doomed.id}/delete`, { confirm: doomed.subdomain }, owner.token);
    expect(del.statusCode).toBe(200);
    expect(await count("smtp_domains WHERE domain = 'doomed.example'")).toBe(0);
    expect(await count("mail_accounts WHERE email = 'dee@doomed.example'")).toBe(0);
    expect(await t.database.query("SELECT * FROM mail_domains_view WHERE domain = 'doomed.example'")).toEqual([]);
  });
});

describe('at the same moment', () => {
  it('a squatter claiming a name first blocks nobody: the owner verifies, the squatter never can, and nobody can claim it after', async () => {
    const [owner, squatter] = [await createProject(t, dev), await createProject(t, other)];
    expect((await smtp('add_domain', { domain: 'race.example' }, other.token, squatter.id)).statusCode).toBe(200);
    expect((await smtp('add_domain', { domain: 'race.example' }, dev.token, owner.id)).statusCode).toBe(200);
    // Only the real owner can publish records; they publish their own claim's DKIM key.
    publish('race.example', (await details(dev.token, owner.id)).dnsRecords);
    const [mine, theirs] = await Promise.all([
      smtp('smtp_domain_verify', { domain: 'race.example' }, dev.token, owner.id),
      smtp('smtp_domain_verify', { domain: 'race.example' }, other.token, squatter.id),
    ]);
    expect(mine.json()).toEqual({ message: 'verified' });
    expect({ status: theirs.statusCode, message: theirs.json().message }).toEqual({ status: 200, message: expect.stringMatching(/^Not verified: TXT \(DKIM\) record at hb\d{6}\._domainkey has a different public key\./) });
    expect((await details(other.token, squatter.id)).verified).toBe(false);
    // Now the name is the owner's: a new claim is refused, never a 500.
    const late = await createProject(t, other);
    expectMessage(await smtp('add_domain', { domain: 'race.example' }, other.token, late.id), 409, 'This domain is already used by another project');
    expect(await t.database.query("SELECT domain FROM mail_domains_view WHERE domain = 'race.example'")).toEqual([{ domain: 'race.example' }]);
  });

  it('two claims of one name verifying at once (both keys published): one wins, the other is told (409), never a 500', async () => {
    const [p1, p2] = [await createProject(t, dev), await createProject(t, other)];
    const claims = await Promise.all([smtp('add_domain', { domain: 'twin.example' }, dev.token, p1.id), smtp('add_domain', { domain: 'twin.example' }, other.token, p2.id)]);
    expect(claims.map((r) => r.statusCode)).toEqual([200, 200]);
    const [r1, r2] = [(await details(dev.token, p1.id)).dnsRecords, (await details(other.token, p2.id)).dnsRecords];
    publish('twin.example', r1);
    // The same selector (this month's) holding both keys: each claim's check passes.
    dns.zone.get(`${r2[3].host}.twin.example`)!.push({ type: 'TXT', data: txtStrings(r2[3].value) });
    const results = await Promise.all([smtp('smtp_domain_verify', { domain: 'twin.example' }, dev.token, p1.id), smtp('smtp_domain_verify', { domain: 'twin.example' }, other.token, p2.id)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().message).toBe('This domain is already used by another project');
    expect(await count("smtp_domains WHERE domain = 'twin.example' AND verified")).toBe(1);

    // One project adding two domains at once keeps one.
    const p3 = await createProject(t, dev);
    const both = await Promise.all([smtp('add_domain', { domain: 'one.example' }, dev.token, p3.id), smtp('add_domain', { domain: 'two.example' }, dev.token, p3.id)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await count('smtp_domains WHERE project_id = $1', [p3.id])).toBe(1);
  });

  it('one mailbox added twice at once: one is created, the other is "This email already exists"', async () => {
    const p = await createProject(t, dev);
    expect((await smtp('add_domain', { domain: 'twice.example' }, dev.token, p.id)).statusCode).toBe(200);
    publish('twice.example', (await details(dev.token, p.id)).dnsRecords);
    expect((await smtp('smtp_domain_verify', { domain: 'twice.example' }, dev.token, p.id)).json()).toEqual({ message: 'verified' });
    const results = await Promise.all([1, 2].map(() => smtp('add_account', { email: 'sam', domain: 'twice.example', password: GOOD_PASSWORD }, dev.token, p.id)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().message).toBe('This email already exists');
    expect(await count("mail_accounts WHERE email = 'sam@twice.example'")).toBe(1);
  });
});
