// The Razorpay adapter against a local server that answers like Razorpay's orders API (its servers
// can't be reached from here): the order request's shape and basic auth, its error answers, the
// checkout signature (HMAC-SHA256 of "order_id|payment_id" with the key secret) and the webhook
// (HMAC-SHA256 of the raw body with the webhook secret, events stored by id).
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildTestApp, type TestApp } from '../helpers/app';
import { registerDeveloper, type Developer } from '../helpers/factories';

const KEY_ID = 'rzp_test_hostbase';
const KEY_SECRET = 'razorpay-key-secret-for-tests';
const WEBHOOK_SECRET = 'razorpay-webhook-secret-for-tests';

interface Seen {
  method?: string;
  url?: string;
  authorization?: string;
  contentType?: string;
  body: Record<string, unknown>;
}

let fake: http.Server;
let seen: Seen[] = [];
/** What the fake answers next: Razorpay's order, or one of its errors. */
let answer: 'order' | 'bad-request' | 'wrong-amount' | 'garbage' = 'order';
let t: TestApp;
let dev: Developer;
let other: Developer;

beforeAll(async () => {
  fake = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization, contentType: req.headers['content-type'], body });
      res.setHeader('content-type', 'application/json');
      const expected = `Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')}`;
      if (req.headers.authorization !== expected) {
        res.statusCode = 401;
        return res.end(JSON.stringify({ error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed' } }));
      }
      if (answer === 'bad-request') {
        res.statusCode = 400;
        return res.end(JSON.stringify({ error: { code: 'BAD_REQUEST_ERROR', description: 'The amount must be atleast INR 1.00' } }));
      }
      if (answer === 'garbage') return res.end('<html>not json</html>');
      const id = `order_${crypto.randomBytes(7).toString('hex')}`;
      res.end(JSON.stringify({ id, entity: 'order', amount: answer === 'wrong-amount' ? 100 : body.amount, amount_paid: 0, amount_due: body.amount, currency: body.currency, receipt: body.receipt, status: 'created', attempts: 0, notes: body.notes, created_at: 1 }));
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const { port } = fake.address() as AddressInfo;
  t = await buildTestApp({ RAZORPAY_KEY_ID: KEY_ID, RAZORPAY_KEY_SECRET: KEY_SECRET, RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET, RAZORPAY_API_URL: `http://127.0.0.1:${port}` });
  dev = await registerDeveloper(t, { ip: '10.78.0.1' });
  other = await registerDeveloper(t, { ip: '10.78.0.2' });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => fake.close(resolve));
});
beforeEach(() => {
  seen = [];
  answer = 'order';
});

const sign = (secret: string, data: string | Buffer) => crypto.createHmac('sha256', secret).update(data).digest('hex');
const planOf = async (d: Developer) => (await t.post('/account-details', {}, d.token)).json().plan as string;
const changes = async (d: Developer) => (await t.database.query<{ n: number }>('SELECT count(*)::int AS n FROM plan_changes WHERE account_id = $1', [d.id]))[0].n;
function webhook(body: object | string, headers: Record<string, string>) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  return t.app.inject({ method: 'POST', url: '/api/webhooks/razorpay', headers: { 'content-type': 'application/json', ...headers }, payload: raw });
}
const paidEvent = (orderId: string, paymentId: string) => ({
  entity: 'event',
  account_id: 'acc_test',
  event: 'order.paid',
  contains: ['payment', 'order'],
  payload: { payment: { entity: { id: paymentId, entity: 'payment', order_id: orderId, status: 'captured', amount: 99_900, currency: 'INR' } }, order: { entity: { id: orderId, status: 'paid' } } },
  created_at: 1,
});

test('startPayment creates the order at Razorpay: POST /v1/orders, basic auth key id:secret, paise, INR, notes; the checkout carries the key id only', async () => {
  const res = await t.post('/pay', { plan: 'pro' }, dev.token);
  expect(res.statusCode).toBe(200);
  expect(seen).toHaveLength(1);
  expect(seen[0]).toMatchObject({ method: 'POST', url: '/v1/orders', authorization: `Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')}`, contentType: 'application/json' });
  expect(seen[0].body).toMatchObject({ amount: 99_900, currency: 'INR', notes: { account_id: dev.id, plan: 'pro' } });
  expect(String(seen[0].body.receipt).length).toBeLessThanOrEqual(40);
  const order = res.json();
  expect(order).toMatchObject({ provider: 'razorpay', amount: 99_900, currency: 'INR', checkout: { provider: 'razorpay', name: 'Razorpay', key_id: KEY_ID } });
  expect(res.body).not.toContain(KEY_SECRET);
  expect(order.checkout_url).toBeUndefined();
});

test.each([
  ['bad-request', 'The payment provider (Razorpay) refused the order (HTTP 400): The amount must be atleast INR 1.00'],
  ['wrong-amount', 'The payment provider (Razorpay) answered with an order that does not match the one asked for'],
  ['garbage', 'The payment provider (Razorpay) answered with an order that does not match the one asked for'],
] as const)("Razorpay's %s answer is a 502 with the reason; no order is recorded", async (kind, message) => {
  answer = kind;
  const before = (await t.database.query('SELECT 1 FROM payment_orders')).length;
  const res = await t.post('/create-order/', { plan: 'pro' }, dev.token);
  expect(res.statusCode).toBe(502);
  expect(res.json().message).toBe(message);
  expect((await t.database.query('SELECT 1 FROM payment_orders')).length).toBe(before);
});

test('an unreachable Razorpay is a 502 that says so', async () => {
  const down = await buildTestApp({ RAZORPAY_KEY_ID: KEY_ID, RAZORPAY_KEY_SECRET: KEY_SECRET, RAZORPAY_API_URL: 'http://127.0.0.1:1' });
  try {
    const someone = await registerDeveloper(down, { ip: '10.78.0.9' });
    const res = await down.post('/create-order/', { plan: 'pro' }, someone.token);
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toBe('The payment provider (Razorpay) could not be reached; try again in a moment');
    // and the test checkout is not there when Razorpay is the provider
    expect((await down.post('/pay/test-checkout', { order_id: 'order_x' }, someone.token)).statusCode).toBe(404);
  } finally {
    await down.close();
  }
});

test('verifyPayment: the key secret\'s signature upgrades once; tampered is 400; another account 404; a replay "already verified"', async () => {
  const order = (await t.post('/create-order/', { plan: 'pro' }, dev.token)).json();
  const paymentId = 'pay_29QQoUBi66xm2f';
  const good = { order_id: order.order_id, payment_id: paymentId, signature: sign(KEY_SECRET, `${order.order_id}|${paymentId}`) };
  const wrongSecret = { ...good, signature: sign(WEBHOOK_SECRET, `${order.order_id}|${paymentId}`) };
  expect((await t.post('/verify-payment/', wrongSecret, dev.token)).statusCode).toBe(400);
  expect((await t.post('/verify-payment/', { ...good, payment_id: 'pay_other' }, dev.token)).statusCode).toBe(400);
  expect((await t.post('/verify-payment/', good, other.token)).statusCode).toBe(404);
  expect(await planOf(dev)).toBe('hobby');
  expect((await t.post('/verify-payment/', good, dev.token)).json()).toMatchObject({ message: 'verified', account_plan: 'pro' });
  expect((await t.post('/verify-payment/', good, dev.token)).json()).toMatchObject({ message: 'already verified' });
  expect(await planOf(dev)).toBe('pro');
  expect(await changes(dev)).toBe(1);

  // the webhook for the same payment, after the verification: stored, nothing changes again
  const event = paidEvent(order.order_id, paymentId);
  const raw = JSON.stringify(event);
  const res = await webhook(raw, { 'x-razorpay-signature': sign(WEBHOOK_SECRET, raw), 'x-razorpay-event-id': 'evt_after_verify' });
  expect(res.statusCode).toBe(200);
  expect(await changes(dev)).toBe(1);
});

test('webhook: a valid order.paid upgrades once; a redelivery is "duplicate"; a tampered body or signature is 400 and changes nothing', async () => {
  const order = (await t.post('/create-order/', { plan: 'pro' }, other.token)).json();
  const raw = JSON.stringify(paidEvent(order.order_id, 'pay_webhook_1'));
  const signature = sign(WEBHOOK_SECRET, raw);

  const tamperedBody = raw.replace('pay_webhook_1', 'pay_webhook_2');
  for (const [body, headers] of [
    [tamperedBody, { 'x-razorpay-signature': signature, 'x-razorpay-event-id': 'evt_1' }],
    [raw, { 'x-razorpay-signature': sign('not-the-secret', raw), 'x-razorpay-event-id': 'evt_1' }],
    [raw, { 'x-razorpay-signature': sign(KEY_SECRET, raw), 'x-razorpay-event-id': 'evt_1' }],
    [raw, { 'x-razorpay-event-id': 'evt_1' }],
  ] as const) {
    const res = await webhook(body, headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/nothing was changed/);
  }
  expect(await planOf(other)).toBe('hobby');

  // A reformatted body (same JSON, other bytes) does not carry the signature either: the raw bytes are signed.
  const pretty = JSON.stringify(JSON.parse(raw), null, 2);
  expect((await webhook(pretty, { 'x-razorpay-signature': signature, 'x-razorpay-event-id': 'evt_1' })).statusCode).toBe(400);

  const first = await webhook(raw, { 'x-razorpay-signature': signature, 'x-razorpay-event-id': 'evt_1' });
  expect(first.statusCode).toBe(200);
  expect(first.json()).toEqual({ message: 'processed' });
  expect(await planOf(other)).toBe('pro');
  const again = await webhook(raw, { 'x-razorpay-signature': signature, 'x-razorpay-event-id': 'evt_1' });
  expect(again.json()).toEqual({ message: 'duplicate' });
  expect(await changes(other)).toBe(1);
  const stored = await t.database.query<{ event: string; order_id: string }>("SELECT event, order_id FROM payment_webhook_events WHERE id = 'evt_1'");
  expect(stored).toEqual([{ event: 'order.paid', order_id: order.order_id }]);
});

test('webhook: an event for no order of ours, or another kind, is acknowledged and changes nothing', async () => {
  const raw = JSON.stringify(paidEvent('order_not_ours', 'pay_x'));
  const res = await webhook(raw, { 'x-razorpay-signature': sign(WEBHOOK_SECRET, raw), 'x-razorpay-event-id': 'evt_unknown' });
  expect(res.json()).toEqual({ message: 'ignored' });
  const notEvent = JSON.stringify({ hello: 'world' });
  expect((await webhook(notEvent, { 'x-razorpay-signature': sign(WEBHOOK_SECRET, notEvent) })).statusCode).toBe(400);
});
