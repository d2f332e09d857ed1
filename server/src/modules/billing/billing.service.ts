// The rules of plans and payments: what a plan costs and allows, an order for a plan at the active
// provider, the plan change its verified payment makes (once), the test provider's checkout, the
// provider's webhook, and an account's billing (plan, limits with their use, payment history).
import { AppError, ErrorCode, Errors } from '../../platform/errors';
import type { Clock } from '../../platform/clock';
import { sha256 } from '../../platform/crypto';
import { LIMITS, PLANS, PLAN_NAMES, allowance, limitsView, planLimits, type LimitName, type PlanName } from '../plans';
import type { AccountRow } from '../accounts';
import type { BillingRepository } from './billing.repository';
import type { PaymentOrderRow } from './billing.tables';
import { PaymentProviderError, type PaymentProvider } from './payment-provider';
import type { TestPaymentProvider } from './test.provider';

export const CURRENCY = 'INR';

export interface BillingServiceDeps {
  repo: BillingRepository;
  /** The active provider: Razorpay when its keys are set, else the test provider. */
  provider: PaymentProvider;
  clock: Clock;
  /** What each counted limit uses now, for the billing screen. */
  usage: (accountId: string) => Promise<Record<LimitName, number>>;
  /** After a plan change: the account's cached row is dropped everywhere before the answer. */
  planChanged: (accountId: string) => Promise<void>;
}

type Purchasable = 'hobby' | 'pro';

export function orderView(o: PaymentOrderRow) {
  return {
    order_id: o.id,
    plan: o.plan,
    amount: o.amount,
    currency: o.currency,
    status: o.status,
    provider: o.provider,
    payment_id: o.paymentId,
    created_at: o.createdAt.toISOString(),
    paid_at: o.paidAt?.toISOString() ?? null,
  };
}

const INVALID_SIGNATURE = 'Payment signature does not match this order and payment: nothing was changed';

export class BillingService {
  constructor(private readonly d: BillingServiceDeps) {}

  plans() {
    return PLAN_NAMES.map((name) => ({
      name,
      label: PLANS[name].label,
      price_inr: PLANS[name].priceInr,
      purchasable: PLANS[name].priceInr !== null,
      limits: limitsView(name),
    }));
  }

  get provider(): PaymentProvider {
    return this.d.provider;
  }

  /** An order for `plan` at the provider, recorded as the account's. */
  async createOrder(account: AccountRow, plan: Purchasable) {
    const price = PLANS[plan].priceInr;
    if (price === null) throw Errors.conflict(`The ${PLANS[plan].label} plan is priced per customer: contact us`);
    if (account.plan === plan) throw Errors.conflict(`You are already on the ${PLANS[plan].label} plan`);
    const amount = price * 100;
    let made;
    try {
      made = await this.d.provider.createOrder({ amount, currency: CURRENCY, receipt: `hb_${account.id.replace(/-/g, '').slice(0, 20)}_${Date.now().toString(36)}`, notes: { account_id: account.id, plan } });
    } catch (err) {
      if (err instanceof PaymentProviderError) throw new AppError(502, ErrorCode.Unavailable, err.message);
      throw err;
    }
    const order = await this.d.repo.insertOrder({ id: made.id, accountId: account.id, provider: this.d.provider.name, plan, amount: made.amount, currency: made.currency, createdAt: this.d.clock.now() });
    return orderView(order);
  }

  /** createOrder plus what the console opens the provider's checkout with. */
  async startPayment(account: AccountRow, plan: Purchasable) {
    const order = await this.createOrder(account, plan);
    const checkout = { ...this.d.provider.checkout(), description: `${PLANS[plan].label} plan, one month`, prefill_email: account.email };
    return { ...order, checkout, ...(this.d.provider.name === 'test' ? { checkout_url: '/api/pay/test-checkout' } : {}) };
  }

  /** Checks the checkout's signature and changes the plan once per order. */
  async verify(account: AccountRow, input: { order_id: string; payment_id: string; signature: string }) {
    const order = await this.d.repo.orderOf(account.id, input.order_id);
    if (!order) throw Errors.notFound('Order');
    if (order.provider !== this.d.provider.name) throw Errors.conflict(`This order was made with another payment provider (${order.provider}) than the one in use`);
    if (!input.payment_id || !this.d.provider.verifyPayment(order.id, input.payment_id, input.signature)) throw Errors.validation(INVALID_SIGNATURE);
    return this.applyPayment(order, input.payment_id);
  }

  private async applyPayment(order: PaymentOrderRow, paymentId: string) {
    let outcome;
    try {
      outcome = await this.d.repo.markPaid(order.id, paymentId, this.d.clock.now());
    } catch (err) {
      // The payment id is unique: one payment can't pay two orders.
      if ((err as { code?: string }).code === '23505' || /unique/i.test(String((err as Error).message))) throw Errors.conflict('This payment has already paid another order');
      throw err;
    }
    if (!outcome) throw Errors.notFound('Order');
    if (outcome.changed) await this.d.planChanged(order.accountId);
    const accountPlan = outcome.changed ? outcome.order.plan : undefined;
    return {
      ...orderView(outcome.order),
      message: outcome.changed ? 'verified' : 'already verified',
      ...(accountPlan ? { account_plan: accountPlan } : {}),
    };
  }

  /** The test provider's checkout: pays the caller's open order (no money moves). */
  async completeTestPayment(account: AccountRow, orderId: string) {
    if (this.d.provider.name !== 'test') throw Errors.notFound('Test checkout');
    const order = await this.d.repo.orderOf(account.id, orderId);
    if (!order || order.provider !== 'test') throw Errors.notFound('Order');
    if (order.status !== 'created') throw Errors.conflict('This order is already paid');
    return (this.d.provider as TestPaymentProvider).pay(order.id);
  }

  /**
   * A provider's webhook: the signature of the raw body first, then the event by id (a delivery
   * seen before changes nothing). order.paid and payment.captured pay their order as verify does.
   */
  async webhook(rawBody: Buffer | undefined, signature: string | undefined, eventId: string | undefined, body: unknown) {
    const provider = this.d.provider;
    if (!provider.verifyWebhook || provider.name !== 'razorpay') throw Errors.notFound('Webhook');
    if (!rawBody || !signature) throw Errors.validation('Missing X-Razorpay-Signature: nothing was changed');
    if (signature.length > 256 || (eventId !== undefined && !/^[\x21-\x7e]{1,128}$/.test(eventId))) throw Errors.validation('X-Razorpay-Signature or X-Razorpay-Event-Id is malformed: nothing was changed');
    if (!provider.verifyWebhook(rawBody, signature)) throw Errors.validation('Webhook signature does not match the body: nothing was changed');
    const event = parseEvent(body);
    if (!event) throw Errors.validation('body is not a Razorpay event (entity "event" with an event name)');
    const id = eventId || `sha256:${sha256(rawBody.toString('utf8'))}`;
    if (await this.d.repo.webhookSeen(id)) return { message: 'duplicate' };
    let handled = false;
    if ((event.name === 'order.paid' || event.name === 'payment.captured') && event.orderId && event.paymentId) {
      const order = await this.d.repo.order(event.orderId);
      if (order && order.provider === 'razorpay') {
        await this.applyPayment(order, event.paymentId).catch((err: unknown) => {
          if (!(err instanceof AppError && err.statusCode === 409)) throw err;
        });
        handled = true;
      }
    }
    const fresh = await this.d.repo.recordWebhook({ id, provider: provider.name, event: event.name, orderId: event.orderId ?? null });
    if (!fresh) return { message: 'duplicate' };
    return { message: handled ? 'processed' : 'ignored' };
  }

  async billing(account: AccountRow) {
    const plan = (account.plan in PLANS ? account.plan : 'hobby') as PlanName;
    const [used, payments, changes] = await Promise.all([this.d.usage(account.id), this.d.repo.payments(account.id), this.d.repo.planChanges(account.id)]);
    return {
      plan,
      label: planLimits(plan).label,
      provider: this.d.provider.checkout(),
      limits: limitsView(plan),
      usage: (Object.keys(LIMITS) as LimitName[]).map((limit) => {
        const allowed = allowance(plan, limit);
        return {
          limit,
          label: LIMITS[limit].label,
          used: used[limit],
          allowed: Number.isFinite(allowed) ? allowed : null,
          unit: LIMITS[limit].bytes ? ('bytes' as const) : ('count' as const),
          monthly: LIMITS[limit].monthly,
        };
      }),
      payments: payments.map(orderView),
      plan_changes: changes.map((c) => ({ from_plan: c.fromPlan, to_plan: c.toPlan, order_id: c.orderId, changed_at: c.changedAt.toISOString() })),
    };
  }
}

interface ParsedEvent {
  name: string;
  orderId?: string;
  paymentId?: string;
}

/** The fields of a Razorpay event the platform acts on; undefined when it is not one. */
function parseEvent(body: unknown): ParsedEvent | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { entity?: unknown; event?: unknown; payload?: { payment?: { entity?: { id?: unknown; order_id?: unknown } }; order?: { entity?: { id?: unknown } } } };
  if (b.entity !== 'event' || typeof b.event !== 'string' || b.event.length > 100) return undefined;
  const payment = b.payload?.payment?.entity;
  const text = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 128 ? v : undefined);
  return { name: b.event, paymentId: text(payment?.id), orderId: text(payment?.order_id) ?? text(b.payload?.order?.entity?.id) };
}
