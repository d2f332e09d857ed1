// Drizzle queries of billing: orders, the plan change a paid order makes (exactly once: the
// order's status moves from created to paid in the same transaction as the plan, and only one
// statement can move it), the payment history, and the provider's webhook events by id.
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { changeAccountPlan } from '../accounts';
import { paymentOrders, paymentWebhookEvents, planChanges, type PaymentOrderRow } from './billing.tables';

export type NewOrder = typeof paymentOrders.$inferInsert;

export type PaidOutcome = { changed: true; order: PaymentOrderRow; fromPlan: string } | { changed: false; order: PaymentOrderRow };

export class BillingRepository {
  constructor(private readonly db: Db) {}

  async insertOrder(row: NewOrder): Promise<PaymentOrderRow> {
    const [inserted] = await this.db.insert(paymentOrders).values(row).returning();
    return inserted;
  }

  async order(orderId: string): Promise<PaymentOrderRow | undefined> {
    const [row] = await this.db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)).limit(1);
    return row;
  }

  /** The account's order, or undefined (another account's order is indistinguishable from none). */
  async orderOf(accountId: string, orderId: string): Promise<PaymentOrderRow | undefined> {
    const [row] = await this.db.select().from(paymentOrders).where(and(eq(paymentOrders.id, orderId), eq(paymentOrders.accountId, accountId))).limit(1);
    return row;
  }

  /**
   * Marks the order paid by `paymentId` and moves its account to the order's plan, recording the
   * change; or, when the order was paid before, changes nothing and says so.
   */
  async markPaid(orderId: string, paymentId: string, now: Date): Promise<PaidOutcome | undefined> {
    return this.db.transaction(async (tx) => {
      const [paid] = await tx
        .update(paymentOrders)
        .set({ status: 'paid', paymentId, paidAt: now })
        .where(and(eq(paymentOrders.id, orderId), eq(paymentOrders.status, 'created')))
        .returning();
      if (!paid) {
        const [order] = await tx.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)).limit(1);
        return order ? { changed: false as const, order } : undefined;
      }
      const fromPlan = (await changeAccountPlan(tx as unknown as Db, paid.accountId, paid.plan, now)) ?? 'hobby';
      await tx.insert(planChanges).values({ accountId: paid.accountId, fromPlan, toPlan: paid.plan, orderId: paid.id, changedAt: now });
      return { changed: true as const, order: paid, fromPlan };
    });
  }

  /** Whether the provider's event was seen before. */
  async webhookSeen(eventId: string): Promise<boolean> {
    const [row] = await this.db.select({ id: paymentWebhookEvents.id }).from(paymentWebhookEvents).where(eq(paymentWebhookEvents.id, eventId)).limit(1);
    return !!row;
  }

  /** Stores the event; false when another delivery of it got there first. */
  async recordWebhook(row: { id: string; provider: string; event: string; orderId: string | null }): Promise<boolean> {
    const rows = await this.db.insert(paymentWebhookEvents).values(row).onConflictDoNothing().returning({ id: paymentWebhookEvents.id });
    return rows.length === 1;
  }

  payments(accountId: string): Promise<PaymentOrderRow[]> {
    return this.db.select().from(paymentOrders).where(eq(paymentOrders.accountId, accountId)).orderBy(desc(paymentOrders.createdAt)).limit(100);
  }

  planChanges(accountId: string) {
    return this.db.select().from(planChanges).where(eq(planChanges.accountId, accountId)).orderBy(desc(planChanges.changedAt)).limit(100);
  }
}
