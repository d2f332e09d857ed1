import { pgTable, uuid, text, timestamp, integer } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.tables';

/** Orders at a payment provider (migrations/0014_billing.sql). */
export const paymentOrders = pgTable('payment_orders', {
  id: text('id').primaryKey(),
  accountId: uuid('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  provider: text('provider', { enum: ['razorpay', 'test'] }).notNull(),
  plan: text('plan', { enum: ['hobby', 'pro'] }).notNull(),
  amount: integer('amount').notNull(),
  currency: text('currency').notNull(),
  status: text('status', { enum: ['created', 'paid', 'failed'] }).notNull().default('created'),
  paymentId: text('payment_id').unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  paidAt: timestamp('paid_at', { withTimezone: true }),
});

export type PaymentOrderRow = typeof paymentOrders.$inferSelect;

export const planChanges = pgTable('plan_changes', {
  id: uuid('id').primaryKey().defaultRandom(),
  accountId: uuid('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  fromPlan: text('from_plan').notNull(),
  toPlan: text('to_plan').notNull(),
  orderId: text('order_id').unique().references(() => paymentOrders.id, { onDelete: 'set null' }),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
});

export const paymentWebhookEvents = pgTable('payment_webhook_events', {
  id: text('id').primaryKey(),
  provider: text('provider').notNull(),
  event: text('event').notNull(),
  orderId: text('order_id'),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});
