// The mail rules without the app: domain and username normalisation, the password rules in the
// SPEC's order, the Dovecot hash format (verified in Node), DKIM keys, and the record checks
// against a scripted resolver (errors a local server can't easily produce).
import crypto from 'node:crypto';
import { mailboxPasswordProblem, mailboxUsername, normalizeDomain } from '../../server/src/modules/mail/mail-rules';
import { hashMailboxPassword, verifyMailboxPassword } from '../../server/src/modules/mail/mailbox-password';
import { dkimSelector, dkimTags, generateDkimKey } from '../../server/src/modules/mail/dkim';
import { checkRecords, mailRecords, notVerifiedMessage, type DnsLookup } from '../../server/src/modules/mail/dns-records';

const INVALID = 'Please enter a valid domain name (e.g., example.com)';

test('domains: required, a hostname with a dot and a letter top-level part, stored lower case and ASCII', () => {
  expect(normalizeDomain('')).toEqual({ ok: false, message: 'Domain name is required' });
  expect(normalizeDomain('  \t ')).toEqual({ ok: false, message: 'Domain name is required' });
  for (const ok of [['Example.COM', 'example.com'], ['mail.example.com.', 'mail.example.com'], [' a-b.example.org ', 'a-b.example.org'], ['Bücher.Example', 'xn--bcher-kva.example'], ['例え.テスト', 'xn--r8jz45g.xn--zckzah'], ['xn--bcher-kva.example', 'xn--bcher-kva.example']]) {
    expect(normalizeDomain(ok[0])).toEqual({ ok: true, domain: ok[1] });
  }
  const bad = ['localhost', 'example.c', 'example.c0m', 'exa mple.com', '-a.com', 'a-.com', 'a_b.com', 'ex..com', '.example.com', '<script>.com', 'a.com/x', 'a@b.com', 'a.com:25',
    "a.com'; drop table x;--", 'a\u00ad.com', 'a\u200b.com', 'a\n.com', `${'a'.repeat(64)}.com`, `${'a.'.repeat(127)}com`, '1.2.3.4', '*.example.com', 'example.com..'];
  for (const b of bad) expect({ b, r: normalizeDomain(b) }).toEqual({ b, r: { ok: false, message: INVALID } });
});

test('usernames: the text before any @, lower case, a safe set of characters', () => {
  expect(mailboxUsername('Ada')).toBe('ada');
  expect(mailboxUsername(' ada.lovelace@elsewhere.com')).toBe('ada.lovelace');
  expect(mailboxUsername('a_b-c1')).toBe('a_b-c1');
  for (const bad of ['', '   ', '@x.com', 'a b', '.ada', 'ada.', 'a..b', 'ad"a', 'a+b', 'ä', 'a/b', 'a'.repeat(65), '%', "a'--"]) expect({ bad, u: mailboxUsername(bad) }).toEqual({ bad, u: undefined });
});

test('mailbox passwords: the SPEC rules in its order, with its texts', () => {
  expect(mailboxPasswordProblem('')).toBe('Password must be at least 8 characters');
  expect(mailboxPasswordProblem('Ab1!')).toBe('Password must be at least 8 characters');
  expect(mailboxPasswordProblem('abcdefg1!')).toBe('Must contain one uppercase letter');
  expect(mailboxPasswordProblem('ABCDEFG1!')).toBe('Must contain one lowercase letter');
  expect(mailboxPasswordProblem('Abcdefgh!')).toBe('Must contain one number');
  expect(mailboxPasswordProblem('Abcdefg12')).toBe('Must contain one special character');
  expect(mailboxPasswordProblem('Abcdefg1!')).toBeUndefined();
  for (const special of '!@#$%^&*') expect(mailboxPasswordProblem(`Abcdefg1${special}`)).toBeUndefined();
  expect(mailboxPasswordProblem('Abcdefg1?')).toBe('Must contain one special character');
  // Counted in characters (code points), not UTF-16 units.
  expect(mailboxPasswordProblem('A1!a🍎🍐🍊')).toBe('Password must be at least 8 characters');
});

test('mailbox password hashes are {ARGON2ID} in the m,t,p order Dovecot reads, and verify in Node', async () => {
  const hash = await hashMailboxPassword('Abcdefg1!');
  expect(hash).toMatch(/^\{ARGON2ID\}\$argon2id\$v=19\$m=65536,t=3,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
  expect(await verifyMailboxPassword('Abcdefg1!', hash)).toBe(true);
  expect(await verifyMailboxPassword('Abcdefg1?', hash)).toBe(false);
  expect(await verifyMailboxPassword('Abcdefg1!', hash.replace('{ARGON2ID}', '{BLF-CRYPT}'))).toBe(false);
  expect(await hashMailboxPassword('Abcdefg1!')).not.toBe(hash); // a fresh salt each time
});

test('hashes are made off the event loop (a worker thread), several at once all answered', async () => {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  const started = Date.now();
  const hashes = await Promise.all(['Abcdefg1!', 'Bcdefgh2@', 'Cdefghi3#'].map(hashMailboxPassword));
  clearInterval(timer);
  const elapsed = Date.now() - started;
  expect(new Set(hashes).size).toBe(3);
  expect(await verifyMailboxPassword('Bcdefgh2@', hashes[1])).toBe(true);
  // The loop kept turning while ~1 s of argon2id ran elsewhere (a blocked loop would tick ~0 times).
  expect(ticks).toBeGreaterThan(elapsed / 5 / 4);
});

test('DKIM keys: RSA 2048, the public half as base64 SPKI DER', async () => {
  const key = await generateDkimKey();
  const pub = crypto.createPublicKey({ key: Buffer.from(key.publicKey, 'base64'), format: 'der', type: 'spki' });
  expect(pub.asymmetricKeyDetails?.modulusLength).toBe(2048);
  expect(crypto.createPublicKey(key.privateKeyPem).export({ type: 'spki', format: 'der' }).toString('base64')).toBe(key.publicKey);
  expect(dkimSelector(new Date('2026-03-05T00:00:00Z'))).toBe('hb202603');
  expect(dkimTags('v=DKIM1; k=rsa;\n p=AB CD')).toEqual(new Map([['v', 'DKIM1'], ['k', 'rsa'], ['p', 'ABCD']]));
});

describe('record checks against a scripted resolver', () => {
  const keys = { domain: 'shop.example', mailHost: 'mail.hostbase.test', dkimSelector: 'hb202611', dkimPublicKey: 'MIIBIjANBgkqh' };
  const failing = (code: string) => Object.assign(new Error(code), { code });
  const resolver = (over: Partial<DnsLookup>): DnsLookup => ({
    resolveMx: async () => [{ exchange: 'mail.hostbase.test', priority: 10 }],
    resolveTxt: async (name) =>
      name === 'shop.example' ? [['v=spf1 mx -all']] : name === '_dmarc.shop.example' ? [['v=DMARC1; p=none']] : [['v=DKIM1; k=rsa; p=MIIB', 'IjANBgkqh']],
    ...over,
  });

  test('every record found: no problems', async () => {
    expect((await checkRecords(resolver({}), keys)).every((c) => c.found)).toBe(true);
  });

  test('a lookup that fails (timeout, refused, SERVFAIL) is named with its code, not taken as missing', async () => {
    const checks = await checkRecords(resolver({ resolveMx: async () => Promise.reject(failing('ETIMEOUT')), resolveTxt: async () => Promise.reject(failing('ESERVFAIL')) }), keys);
    expect(notVerifiedMessage(checks)).toBe(
      'Not verified: MX record at @ could not be looked up (ETIMEOUT); TXT (SPF) record at @ could not be looked up (ESERVFAIL); ' +
        'TXT (DMARC) record at _dmarc could not be looked up (ESERVFAIL); TXT (DKIM) record at hb202611._domainkey could not be looked up (ESERVFAIL). ' +
        'DNS changes can take up to 48 hours to propagate.',
    );
  });

  test('SPF through a:{mail host} counts; two SPF or two DMARC records are wrong; a DKIM record without p= is named', async () => {
    const txt = (m: Record<string, string[][]>) => resolver({ resolveTxt: async (name) => m[name] ?? [] });
    let checks = await checkRecords(txt({ 'shop.example': [['v=spf1 a:mail.hostbase.test ~all']], '_dmarc.shop.example': [['v=DMARC1;p=reject']], 'hb202611._domainkey.shop.example': [['v=DKIM1; p=MIIBIjANBgkqh']] }), keys);
    expect(checks.every((c) => c.found)).toBe(true);
    checks = await checkRecords(txt({ 'shop.example': [['v=spf1 mx -all'], ['v=spf1 -all']], '_dmarc.shop.example': [['v=DMARC1; p=none'], ['v=DMARC1; p=reject']], 'hb202611._domainkey.shop.example': [['v=DKIM1; k=rsa']] }), keys);
    expect(checks.map((c) => c.problem)).toEqual([
      undefined,
      'TXT (SPF) record at @ is published more than once (keep one v=spf1 record)',
      'TXT (DMARC) record at _dmarc is published more than once (keep one v=DMARC1 record)',
      'TXT (DKIM) record at hb202611._domainkey has no public key (p=)',
    ]);
  });

  test('the records to publish: MX @ 10, SPF @, DMARC _dmarc, DKIM {selector}._domainkey, all TTL 3600', () => {
    expect(mailRecords(keys).map(({ type, host, priority, ttl }) => ({ type, host, priority, ttl }))).toEqual([
      { type: 'MX', host: '@', priority: 10, ttl: 3600 },
      { type: 'TXT', host: '@', priority: undefined, ttl: 3600 },
      { type: 'TXT', host: '_dmarc', priority: undefined, ttl: 3600 },
      { type: 'TXT', host: 'hb202611._domainkey', priority: undefined, ttl: 3600 },
    ]);
  });
});
