// Plans and payments with the test provider (no Razorpay keys: what a keyless `npm start` uses):
// startPayment → the platform's test checkout → verifyPayment upgrades the plan exactly once; a
// replayed verification changes nothing and says so; a tampered signature changes nothing and
// says why; another account can neither verify nor complete the order, nor see any of it.
import crypto from 'node:crypto';
import { buildTestApp, type TestApp } from '../helpers/app';
import { registerDeveloper, type Developer } from '../helpers/factories';

let t: TestApp;
let dev: Developer;
let other: Developer;
beforeAll(async () => {
  t = await buildTestApp();
  dev = await registerDeveloper(t, { ip: '10.77.0.1' });
  other = await registerDeveloper(t, { ip: '10.77.0.2' });
});
afterAll(() => t.close());

const get = (url: string, token?: string) => t.app.inject({ method: 'GET', url: '/api' + url, headers: token ? { authorization: `Bearer ${token}` } : {} });
const planOf = async (d: Developer) => (await t.post('/account-details', {}, d.token)).json().plan as string;
const changes = async (d: Developer) => (await t.database.query<{ n: number }>('SELECT count(*)::int AS n FROM plan_changes WHERE account_id = $1', [d.id]))[0].n;

test('listPlans is public: Hobby, Pro and Enterprise with prices and every limit (null: unlimited)', async () => {
  const res = await get('/plans');
  expect(res.statusCode).toBe(200);
  const plans = res.json() as { name: string; price_inr: number | null; purchasable: boolean; limits: Record<string, number | null> }[];
  expect(plans.map((p) => [p.name, p.price_inr, p.purchasable])).toEqual([['hobby', 99, true], ['pro', 999, true], ['enterprise', null, false]]);
  expect(plans[0].limits).toEqual({ projects: 3, database_bytes: 1024 ** 3, storage_bytes: 5 * 1024 ** 3, monthly_active_users: 100_000, bandwidth_bytes: 100 * 1024 ** 3, mailboxes: 5 });
  expect(Object.values(plans[2].limits).every((v) => v === null)).toBe(true);
});

test('getBilling: the plan, its limits with their use, the test provider by its name; no token is 401', async () => {
  const res = await get('/billing', dev.token);
  expect(res.statusCode).toBe(200);
  const b = res.json();
  expect(b).toMatchObject({ plan: 'hobby', label: 'Hobby', provider: { provider: 'test', name: 'Test payments: no money moves' }, payments: [], plan_changes: [] });
  expect(b.usage.map((u: { limit: string }) => u.limit)).toEqual(['projects', 'storage', 'database', 'monthly_active_users', 'bandwidth', 'mailboxes']);
  expect(b.usage[0]).toMatchObject({ used: 0, allowed: 3, unit: 'count' });
  expect((await get('/billing')).statusCode).toBe(401);
});

test('bad input: an unknown or Enterprise plan is 400, the current plan 409; nothing is recorded', async () => {
  for (const plan of ['enterprise', 'gold', 7]) expect((await t.post('/pay', { plan }, dev.token)).statusCode).toBe(400);
  const same = await t.post('/create-order/', { plan: 'hobby' }, dev.token);
  expect(same.statusCode).toBe(409);
  expect(same.json().message).toBe('You are already on the Hobby plan');
  expect((await t.post('/pay', { plan: 'pro' })).statusCode).toBe(401);
  expect((await t.database.query('SELECT 1 FROM payment_orders WHERE account_id = $1', [dev.id])).length).toBe(0);
});

describe('an upgrade to Pro', () => {
  let order: { order_id: string; amount: number; currency: string; checkout: { provider: string; name: string }; checkout_url: string };
  let paid: { order_id: string; payment_id: string; signature: string };

  test('startPayment answers the order (₹999 in paise) and the test checkout', async () => {
    const res = await t.post('/pay', { plan: 'pro' }, dev.token);
    expect(res.statusCode).toBe(200);
    order = res.json();
    expect(order).toMatchObject({ plan: 'pro', amount: 99_900, currency: 'INR', status: 'created', provider: 'test', checkout: { provider: 'test', name: 'Test payments: no money moves' }, checkout_url: '/api/pay/test-checkout' });
    expect(order.order_id).toMatch(/^order_test_/);
  });

  test("another account can't complete or verify it (404), and the plan stays", async () => {
    expect((await t.post('/pay/test-checkout', { order_id: order.order_id }, other.token)).statusCode).toBe(404);
    const mine = await t.post('/pay/test-checkout', { order_id: order.order_id }, dev.token);
    expect(mine.statusCode).toBe(200);
    paid = mine.json();
    expect(paid.order_id).toBe(order.order_id);
    const stolen = await t.post('/verify-payment/', paid, other.token);
    expect(stolen.statusCode).toBe(404);
    expect(stolen.body).not.toContain(order.order_id);
    expect(await planOf(dev)).toBe('hobby');
    expect(await planOf(other)).toBe('hobby');
  });

  test('a tampered signature, payment id or order id is 400 (or 404), says why, and changes nothing', async () => {
    const flip = (s: string) => (s[0] === 'a' ? 'b' : 'a') + s.slice(1);
    for (const body of [
      { ...paid, signature: flip(paid.signature) },
      { ...paid, signature: 'not-hex' },
      { ...paid, signature: '' },
      { ...paid, payment_id: paid.payment_id + 'x' },
      { ...paid, signature: crypto.createHmac('sha256', 'guessed').update(`${paid.order_id}|${paid.payment_id}`).digest('hex') },
    ]) {
      const res = await t.post('/verify-payment/', body, dev.token);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Payment signature does not match this order and payment: nothing was changed');
    }
    expect((await t.post('/verify-payment/', { ...paid, order_id: 'order_test_unknown' }, dev.token)).statusCode).toBe(404);
    expect(await planOf(dev)).toBe('hobby');
    expect(await changes(dev)).toBe(0);
  });

  test('the valid signature upgrades to Pro once; a replay says "already verified" and changes nothing', async () => {
    const res = await t.post('/verify-payment/', paid, dev.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'verified', status: 'paid', plan: 'pro', account_plan: 'pro', payment_id: paid.payment_id });
    expect(await planOf(dev)).toBe('pro');
    const replays = await Promise.all([1, 2, 3].map(() => t.post('/verify-payment/', paid, dev.token)));
    for (const r of replays) expect(r.json()).toMatchObject({ message: 'already verified', status: 'paid' });
    expect(await changes(dev)).toBe(1);
    expect((await t.post('/pay/test-checkout', { order_id: order.order_id }, dev.token)).statusCode).toBe(409);
  });

  test('getBilling shows the payment and the change; the other account sees none of it', async () => {
    const b = (await get('/billing', dev.token)).json();
    expect(b).toMatchObject({ plan: 'pro', label: 'Pro' });
    expect(b.usage[0]).toMatchObject({ limit: 'projects', allowed: 20 });
    expect(b.payments).toEqual([expect.objectContaining({ order_id: order.order_id, status: 'paid', amount: 99_900 })]);
    expect(b.plan_changes).toEqual([expect.objectContaining({ from_plan: 'hobby', to_plan: 'pro', order_id: order.order_id })]);
    const theirs = (await get('/billing', other.token)).json();
    expect(theirs).toMatchObject({ plan: 'hobby', payments: [], plan_changes: [] });
  });
});

test('concurrent verifications of one paid checkout change the plan exactly once', async () => {
  const dev2 = await registerDeveloper(t, { ip: '10.77.0.3' });
  const order = (await t.post('/create-order/', { plan: 'pro' }, dev2.token)).json();
  const paid = (await t.post('/pay/test-checkout', { order_id: order.order_id }, dev2.token)).json();
  const answers = await Promise.all(Array.from({ length: 5 }, () => t.post('/verify-payment/', paid, dev2.token)));
  expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
  expect(answers.filter((a) => a.json().message === 'verified')).toHaveLength(1);
  expect(await changes(dev2)).toBe(1);
});

test("the Razorpay webhook isn't served without Razorpay (404)", async () => {
  const res = await t.post('/webhooks/razorpay', { entity: 'event', event: 'order.paid' }, undefined, { 'x-razorpay-signature': 'ab' });
  expect(res.statusCode).toBe(404);
});
