import { pgTable, uuid, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.tables';

export const projects = pgTable('projects', {
  id: uuid('id').primaryKey().defaultRandom(),
  ownerId: uuid('owner_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  description: text('description'),
  subdomain: text('subdomain').notNull().unique('projects_subdomain_key'),
  bucketId: text('bucket_id').notNull().unique('projects_bucket_id_key'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type ProjectRow = typeof projects.$inferSelect;

export const projectKeys = pgTable('project_keys', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  kind: text('kind', { enum: ['bucket', 'authentication'] }).notNull(),
  keyHash: text('key_hash').notNull(),
  keyEnc: text('key_enc').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
});

export type ProjectKeyKind = (typeof projectKeys.$inferSelect)['kind'];
