// Every counted plan limit refuses the call that would pass it, also when the calls come at once
// (exactly the allowed number get through), with a 403 naming the limit and the plan; quota_passed
// is told once at 80 % and once at 100 % per limit, account and period; another account is never
// touched by any of it. Hobby: 3 projects, 5 mailboxes, 100,000 monthly active users, 100 GiB of
// bandwidth a month (server/src/modules/plans/plans.ts).
import type { AccountEvent } from '../../server/src/platform/account-events';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, deploy, makeZip, registerDeveloper, upload, type Developer, type Project } from '../helpers/factories';

jest.setTimeout(120_000);

const GiB = 1024 ** 3;
let t: TestApp;
const events: Extract<AccountEvent, { type: 'quota_passed' }>[] = [];
let bystander: Developer;

beforeAll(async () => {
  t = await buildTestApp();
  t.app.deps.events.on(async (e) => {
    if (e.type === 'quota_passed') events.push(e);
  });
  bystander = await registerDeveloper(t, { ip: '10.79.0.99' });
});
afterAll(() => t.close());

const eventsOf = (dev: Developer, limit: string) => events.filter((e) => e.accountId === dev.id && e.limit === limit).map((e) => e.percent);

/** Pro through the test provider's checkout, as the console does it. */
async function upgrade(dev: Developer) {
  const order = (await t.post('/pay', { plan: 'pro' }, dev.token)).json();
  const paid = (await t.post('/pay/test-checkout', { order_id: order.order_id }, dev.token)).json();
  expect((await t.post('/verify-payment/', paid, dev.token)).json().message).toBe('verified');
}

describe('projects', () => {
  let dev: Developer;
  beforeAll(async () => {
    dev = await registerDeveloper(t, { ip: '10.79.0.1' });
  });

  test('5 creates at once on Hobby: exactly 3 succeed, the others are 403 naming the limit and the plan', async () => {
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => t.post('/create-project', { projectName: `P${i}`, subdomain: `lim-${dev.id.slice(0, 8)}-${i}` }, dev.token)),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(3);
    const refused = answers.filter((a) => a.statusCode !== 200);
    expect(refused.map((a) => a.statusCode)).toEqual([403, 403]);
    for (const r of refused) expect(r.json().message).toBe('Your Hobby plan allows 3 projects. Upgrade the plan in Settings → Billing.');
    expect((await t.post('/projects', undefined, dev.token)).json()).toHaveLength(3);
    expect(eventsOf(dev, 'Projects')).toEqual([100]);
    expect(events.find((e) => e.accountId === dev.id)).toMatchObject({ plan: 'Hobby', message: "Projects: your Hobby plan's limit of 3 projects is reached." });
  });

  test('the refusals tell nothing more; after an upgrade to Pro the next create succeeds', async () => {
    expect((await t.post('/create-project', { projectName: 'again', subdomain: `lim-${dev.id.slice(0, 8)}-9` }, dev.token)).statusCode).toBe(403);
    expect(eventsOf(dev, 'Projects')).toEqual([100]);
    await upgrade(dev);
    expect((await t.post('/create-project', { projectName: 'fourth', subdomain: `lim-${dev.id.slice(0, 8)}-9` }, dev.token)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/billing', headers: { authorization: `Bearer ${dev.token}` } })).json().usage[0]).toMatchObject({ used: 4, allowed: 20 });
  });

  test('another account is not held by it', async () => {
    expect((await t.post('/create-project', { projectName: 'mine', subdomain: `by-${bystander.id.slice(0, 8)}` }, bystander.token)).statusCode).toBe(200);
    expect(events.filter((e) => e.accountId === bystander.id)).toEqual([]);
  });
});

describe('mailboxes', () => {
  let dev: Developer;
  let project: Project;
  const domain = 'limits-mail.example';
  const add = (username: string) => t.post(`/project/${project.id}/smtp/add_account`, { email: username, domain, password: 'Abcdefg1!' }, dev.token);

  beforeAll(async () => {
    dev = await registerDeveloper(t, { ip: '10.79.0.2' });
    project = await createProject(t, dev);
    expect((await t.post(`/project/${project.id}/smtp/add_domain`, { domain }, dev.token)).statusCode).toBe(200);
    // DNS verification is the smtp module's (test/smtp); here the domain only needs to be verified.
    await t.database.query('UPDATE smtp_domains SET verified = true, verified_at = now() WHERE project_id = $1', [project.id]);
  });

  test('3 mailboxes, then 5 at once: exactly 2 more; 80 % and 100 % told once each', async () => {
    for (const u of ['a', 'b', 'c']) expect((await add(u)).statusCode).toBe(200);
    expect(eventsOf(dev, 'Mailboxes')).toEqual([]);
    const answers = await Promise.all(['d', 'e', 'f', 'g', 'h'].map(add));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(2);
    for (const r of answers.filter((a) => a.statusCode !== 200)) {
      expect(r.statusCode).toBe(403);
      expect(r.json().message).toBe('Your Hobby plan allows 5 mailboxes. Upgrade the plan in Settings → Billing.');
    }
    expect(eventsOf(dev, 'Mailboxes').sort()).toEqual([100, 80]);
    const [{ n }] = await t.database.query<{ n: number }>('SELECT count(*)::int AS n FROM mail_accounts m JOIN smtp_domains d ON d.id = m.domain_id WHERE d.project_id = $1', [project.id]);
    expect(n).toBe(5);
  });

  test('removed and added again: the notices are not sent twice', async () => {
    expect((await t.post(`/project/${project.id}/smtp/remove_account`, { email: `a@${domain}` }, dev.token)).statusCode).toBe(200);
    expect((await add('a2')).statusCode).toBe(200);
    expect(eventsOf(dev, 'Mailboxes').sort()).toEqual([100, 80]);
    expect((await add('a3')).statusCode).toBe(403);
  });
});

describe('monthly active end users', () => {
  let dev: Developer;
  let project: Project;
  const signUp = (email: string, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/v1/signup', headers: { 'x-api-key': project.authKey }, remoteAddress: ip, payload: { email, password: 'correct horse battery' } });
  const signIn = (email: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/v1/signin', headers: { 'x-api-key': project.authKey }, payload: { email, password: 'correct horse battery' } });

  beforeAll(async () => {
    dev = await registerDeveloper(t, { ip: '10.79.0.3' });
    project = await createProject(t, dev);
    // 99,997 users active this month (signed in today), written in one statement.
    await t.database.query(
      `INSERT INTO end_users (project_id, email, email_normalized, password_hash, last_login)
       SELECT $1, 'bulk' || g || '@example.com', 'bulk' || g || '@example.com', 'x', now() FROM generate_series(1, 99997) g`,
      [project.id],
    );
    // Added in the console: a user, but not an active one until they sign in.
    expect((await t.post(`/project/${project.id}/auth/add_user`, { email: 'quiet@example.com', password: 'correct horse battery' }, dev.token)).statusCode).toBe(200);
  });

  test('the 99,998th sign-up passes 80 %; then 5 at once: exactly 2 more, the others 403 naming the limit', async () => {
    expect((await signUp('first@example.com', '10.80.0.1')).statusCode).toBe(200);
    expect(eventsOf(dev, 'Monthly active users')).toEqual([80]);
    const answers = await Promise.all([2, 3, 4, 5, 6].map((i) => signUp(`burst${i}@example.com`, `10.80.0.${i}`)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(2);
    for (const r of answers.filter((a) => a.statusCode !== 200)) {
      expect(r.statusCode).toBe(403);
      expect(r.json().message).toBe('Your Hobby plan allows 100,000 monthly active users. Upgrade the plan in Settings → Billing.');
    }
    expect(eventsOf(dev, 'Monthly active users')).toEqual([80, 100]);
    const [{ n }] = await t.database.query<{ n: number }>('SELECT count(*)::int AS n FROM end_users WHERE project_id = $1', [project.id]);
    expect(n).toBe(99_997 + 1 + 1 + 3 - 1); // bulk, the quiet one, first, two of the burst
  });

  test('at the limit: a user active this month still signs in; one not yet active is refused', async () => {
    expect((await signIn('first@example.com')).statusCode).toBe(200);
    const quiet = await signIn('quiet@example.com');
    expect(quiet.statusCode).toBe(403);
    expect(quiet.json().message).toMatch(/^Your Hobby plan allows 100,000 monthly active users/);
    const [row] = await t.database.query<{ last_login: Date | null }>("SELECT last_login FROM end_users WHERE email_normalized = 'quiet@example.com'");
    expect(row.last_login).toBeNull();
  });
});

describe('storage (its limit is enforced by the storage module: test/storage)', () => {
  test('an upload past 80 % of the plan\'s 5 GiB tells the owner once; past 100 % it is refused with 413', async () => {
    const dev = await registerDeveloper(t, { ip: '10.79.0.5' });
    const project = await createProject(t, dev);
    // A file's row stands for 4.1 GiB already stored (its bytes are not needed to count); a.txt and b.txt add 10 bytes.
    await t.database.query(
      `INSERT INTO storage_objects (object_id, project_id, storage_key, name, object_type, object_size, etag, share_segment)
       VALUES (gen_random_uuid(), $1, 'none', 'big.bin', 'application/octet-stream', $2, 'x', 'seg-' || md5(random()::text))`,
      [project.id, Math.round(4.1 * GiB)],
    );
    for (const name of ['a.txt', 'b.txt']) expect((await upload(t, dev.token, project.id, [{ name, content: 'hello' }])).statusCode).toBe(200);
    expect(eventsOf(dev, 'Storage')).toEqual([80]);
    await t.database.query('UPDATE storage_objects SET object_size = $2 WHERE project_id = $1 AND name = $3', [project.id, 5 * GiB - 15, 'big.bin']);
    // c.txt's 5 bytes bring the account to exactly 5 GiB.
    expect((await upload(t, dev.token, project.id, [{ name: 'c.txt', content: 'hello' }])).statusCode).toBe(200);
    expect(eventsOf(dev, 'Storage')).toEqual([80, 100]);
    expect((await upload(t, dev.token, project.id, [{ name: 'd.txt', content: 'hello' }])).statusCode).toBe(413);
  });
});

describe('hosting bandwidth', () => {
  let dev: Developer;
  let project: Project;
  const visit = () => t.app.inject({ method: 'GET', url: '/', headers: { host: project.host } });
  /** The owner's traffic report saves the gateway's counts, and the bandwidth check follows each save. */
  const owners = () => t.post(`/project/${project.id}/hosting/traffic`, {}, dev.token);
  const setMonthBytes = (bytes: number) =>
    t.database.query(
      `INSERT INTO site_traffic (project_id, hour, requests, bytes_in, bytes_out) VALUES ($1, date_trunc('hour', now()), 1, 0, $2)
       ON CONFLICT (project_id, hour) DO UPDATE SET bytes_out = $2`,
      [project.id, bytes],
    );

  beforeAll(async () => {
    dev = await registerDeveloper(t, { ip: '10.79.0.4' });
    project = await createProject(t, dev);
    expect((await deploy(t, project, makeZip([{ name: 'index.html', data: '<title>bandwidth</title>' }]), 'Static')).statusCode).toBe(200);
    expect((await visit()).statusCode).toBe(200);
  });

  test('past 80 % the site still answers and the owner is told once', async () => {
    await setMonthBytes(Math.ceil(80.5 * GiB));
    expect((await owners()).statusCode).toBe(200);
    expect((await visit()).statusCode).toBe(200);
    expect((await owners()).statusCode).toBe(200);
    expect(eventsOf(dev, 'Bandwidth')).toEqual([80]);
  });

  test('at 100 % the site answers 503 with a page that says why; the owner\'s console still works', async () => {
    await setMonthBytes(100 * GiB - 10);
    // The request that passes the limit is served; its bytes are saved and checked; the next is refused.
    expect((await visit()).statusCode).toBe(200);
    expect((await owners()).statusCode).toBe(200);
    const res = await visit();
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('Bandwidth limit reached');
    expect(res.body).toContain('Hobby plan&#39;s 100 GiB of bandwidth for this month');
    expect(eventsOf(dev, 'Bandwidth')).toEqual([80, 100]);
    expect((await owners()).statusCode).toBe(200);
    expect((await t.post('/projects', undefined, dev.token)).statusCode).toBe(200);
    expect((await t.post('/account-details', {}, dev.token)).statusCode).toBe(200);
    const billing = (await t.app.inject({ method: 'GET', url: '/api/billing', headers: { authorization: `Bearer ${dev.token}` } })).json();
    expect(billing.usage.find((u: { limit: string }) => u.limit === 'bandwidth')).toMatchObject({ allowed: 100 * GiB, unit: 'bytes', monthly: true });
    expect(billing.usage.find((u: { limit: string }) => u.limit === 'bandwidth').used).toBeGreaterThanOrEqual(100 * GiB);
    expect(eventsOf(dev, 'Bandwidth')).toEqual([80, 100]);
  });

  test('after an upgrade to Pro the site answers again', async () => {
    await upgrade(dev);
    expect((await owners()).statusCode).toBe(200);
    expect((await visit()).statusCode).toBe(200);
  });

  test("another account's sites and events are untouched", async () => {
    expect(events.filter((e) => e.accountId === bystander.id)).toEqual([]);
  });
});
