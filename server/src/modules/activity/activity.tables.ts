import { pgTable, uuid, text, timestamp, bigint } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.tables';
import { projects } from '../projects/projects.tables';

/** One change a developer made (migration 0013). project_id outlives its project on purpose. */
export const activityLog = pgTable('activity_log', {
  id: uuid('id').primaryKey().defaultRandom(),
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  accountId: uuid('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  projectId: uuid('project_id'),
  operationId: text('operation_id').notNull(),
  summary: text('summary').notNull(),
  ip: text('ip').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
export type ActivityRow = typeof activityLog.$inferSelect;
export type NewActivity = Pick<typeof activityLog.$inferInsert, 'accountId' | 'projectId' | 'operationId' | 'summary' | 'ip'>;

export const projectErrorKinds = ['deploy_failed', 'runtime_crashed', 'dns_unverified', 'quota_passed'] as const;
export type ProjectErrorKind = (typeof projectErrorKinds)[number];

/** What went wrong in a project, heard on the account events channel. */
export const projectErrors = pgTable('project_errors', {
  id: uuid('id').primaryKey().defaultRandom(),
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  kind: text('kind', { enum: projectErrorKinds }).notNull(),
  severity: text('severity', { enum: ['low', 'medium', 'high'] }).notNull(),
  message: text('message').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
export type ProjectErrorRow = typeof projectErrors.$inferSelect;
