// Account settings kept by the server: notification preferences (the same in every browser), a
// change of email that counts only once the new address confirms it, and the notification mails
// those preferences turn on and off.
import { generate } from 'otplib';
import { buildTestApp, type TestApp } from '../helpers/app';
import { registerDeveloper, type Developer } from '../helpers/factories';
import { injectPost, ipSequence } from '../helpers/inject';

jest.setTimeout(30_000);

let t: TestApp;
const ip = ipSequence(7);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const post = (path: string, body: unknown, token?: string) => injectPost(t.app, path, body, { token, ip: ip() }, ip);
const details = (dev: Developer, body: unknown = {}) => post('/account-details', body, dev.token);
const mailsTo = (to: string) => t.outbox().filter((m) => m.to.includes(to));
let n = 0;
const newDeveloper = () => registerDeveloper(t, { name: 'Settings Tester', email: `settings-${++n}-${Date.now()}@example.com`, ip: ip() });

describe('notification preferences', () => {
  test('email on and push off by default; a change is kept by the server, one preference at a time', async () => {
    const dev = await newDeveloper();
    expect((await details(dev)).json().notifications).toEqual({ email: true, push: false });
    const changed = await details(dev, { notifications: { push: true } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().notifications).toEqual({ email: true, push: true });
    await details(dev, { notifications: { email: false } });
    // Another session (another browser) reads the same.
    const login = await post('/verify_user', { email: dev.email, password: dev.password });
    const elsewhere = await post('/account-details', {}, login.json().token);
    expect(elsewhere.json().notifications).toEqual({ email: false, push: true });
  });

  test('bad values are refused with a message and change nothing', async () => {
    const dev = await newDeveloper();
    for (const body of [{ notifications: { email: 'yes' } }, { notifications: 'off' }, { notifications: { push: null } }]) {
      const res = await details(dev, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/notifications/);
    }
    expect((await details(dev)).json().notifications).toEqual({ email: true, push: false });
  });
});

describe('changing the email address', () => {
  test('the new address counts only once its link is opened; the old address is told', async () => {
    const dev = await newDeveloper();
    const next = `moved-${Date.now()}@example.com`;
    const asked = await details(dev, { email: next });
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toMatchObject({ email: dev.email, pending_email: next });
    // Signing in still takes the old address.
    expect((await post('/verify_user', { email: next, password: dev.password })).statusCode).toBe(401);

    const [mail] = mailsTo(next);
    expect(mail.subject).toBe('Confirm your new email for Hostbase');
    const link = mail.links.find((l) => l.includes('/api/verify/'))!;
    const opened = await t.app.inject({ method: 'GET', url: new URL(link).pathname });
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toMatch(/\/email-verified$/);

    const now = (await details(dev)).json();
    expect(now).toMatchObject({ email: next, email_verified: true });
    expect(now.pending_email).toBeUndefined();
    expect(mailsTo(dev.email).some((m) => m.subject === 'Your Hostbase email address was changed' && m.text.includes(next))).toBe(true);
    expect((await post('/verify_user', { email: next, password: dev.password })).statusCode).toBe(200);
    // The link works once.
    const again = await t.app.inject({ method: 'GET', url: new URL(link).pathname });
    expect(again.headers.location).toMatch(/error=invalid/);
  });

  test('an address another account took meanwhile: refused when the link is opened, nothing changes', async () => {
    const dev = await newDeveloper();
    const wanted = `wanted-${Date.now()}@example.com`;
    await details(dev, { email: wanted });
    await registerDeveloper(t, { email: wanted, ip: ip() });
    const token = new URL(mailsTo(wanted).find((m) => m.subject.startsWith('Confirm'))!.links.find((l) => l.includes('/api/verify/'))!).pathname.split('/').pop()!;
    const res = await post('/verify-email', { token });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('An account with this email already exists');
    expect((await details(dev)).json().email).toBe(dev.email);
    const viaLink = await t.app.inject({ method: 'GET', url: `/api/verify/${token}` });
    expect(viaLink.headers.location).toMatch(/error=taken/);
  });

  test('the same address again is no change; a malformed one is refused', async () => {
    const dev = await newDeveloper();
    const same = await details(dev, { email: dev.email.toUpperCase() });
    expect(same.statusCode).toBe(200);
    expect(same.json().pending_email).toBeUndefined();
    expect(mailsTo(dev.email.toUpperCase()).filter((m) => m.subject.startsWith('Confirm'))).toEqual([]);
    const bad = await details(dev, { email: 'not an address' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/email/);
  });

  test("another account sees none of it: its details show its own address and no pending change", async () => {
    const a = await newDeveloper();
    const b = await newDeveloper();
    await details(a, { email: `a-moves-${Date.now()}@example.com` });
    const seen = (await details(b)).json();
    expect(seen.email).toBe(b.email);
    expect(seen.pending_email).toBeUndefined();
  });
});

describe('notification mails', () => {
  async function withMfa(dev: Developer): Promise<string> {
    const secret = (await post('/toggle-mfa', {}, dev.token)).json().secret as string;
    expect((await post('/toggle-mfa', { mfa_code: await generate({ secret }) }, dev.token)).statusCode).toBe(200);
    return secret;
  }
  const MFA_OFF = 'Two-factor authentication was turned off';

  test('two-factor turned off: a mail when email notifications are on, none when they are off', async () => {
    const on = await newDeveloper();
    const secret = await withMfa(on);
    // The step just used can't be used again: the next step's code.
    const res = await post('/toggle-mfa', { mfa_code: await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }) }, on.token);
    expect(res.statusCode).toBe(200);
    expect(mailsTo(on.email).filter((m) => m.subject === MFA_OFF)).toHaveLength(1);

    const off = await newDeveloper();
    await details(off, { notifications: { email: false } });
    const secretOff = await withMfa(off);
    expect((await post('/toggle-mfa', { mfa_code: await generate({ secret: secretOff, epoch: Math.floor(Date.now() / 1000) + 30 }) }, off.token)).statusCode).toBe(200);
    expect(mailsTo(off.email).filter((m) => m.subject === MFA_OFF)).toHaveLength(0);
  });

  test('a failed deploy and a quota at 80 % reach the inbox of the project owner, with the project named', async () => {
    const dev = await newDeveloper();
    const created = await post('/create-project', { projectName: 'Mail Shop', subdomain: `mailshop${Date.now()}` }, dev.token);
    const projectId = created.json().project.id as string;
    await t.app.deps.events.emit({ type: 'deploy_failed', accountId: dev.id, projectId, message: 'The archive has no index.html' });
    await t.app.deps.events.emit({ type: 'quota_passed', accountId: dev.id, projectId, limit: 'Storage', plan: 'Hobby', percent: 80, message: 'Storage is at 80 % of your Hobby plan (4 GB of 5 GB).' });
    const mails = mailsTo(dev.email);
    const deploy = mails.find((m) => m.subject === 'Deploy failed: Mail Shop')!;
    expect(deploy.text).toContain('The archive has no index.html');
    expect(mails.find((m) => m.subject === "Storage: 80 % of your Hobby plan's limit")!.text).toContain('4 GB of 5 GB');
  });
});
