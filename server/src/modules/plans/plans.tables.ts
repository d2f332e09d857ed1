import { pgTable, uuid, text, timestamp, integer, primaryKey } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.tables';

/** The quota notices sent: one per account, limit, period, percent and plan (plan-limits.ts). */
export const quotaNotices = pgTable(
  'quota_notices',
  {
    accountId: uuid('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    limitName: text('limit_name').notNull(),
    period: text('period').notNull(),
    percent: integer('percent').notNull(),
    plan: text('plan').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.limitName, t.period, t.percent, t.plan] })],
);
