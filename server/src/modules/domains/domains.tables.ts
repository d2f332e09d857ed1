// Custom domains (migrations/0023_custom_domains.sql).
import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables';

export const siteDomains = pgTable('site_domains', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  hostname: text('hostname').notNull(),
  verifiedAt: timestamp('verified_at', { withTimezone: true }),
  certPem: text('cert_pem'),
  keySealed: text('key_sealed'),
  certExpiresAt: timestamp('cert_expires_at', { withTimezone: true }),
  lastError: text('last_error'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const acmeChallenges = pgTable('acme_challenges', {
  token: text('token').primaryKey(),
  hostname: text('hostname').notNull(),
  keyAuthorization: text('key_authorization').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const acmeAccounts = pgTable('acme_accounts', {
  directoryUrl: text('directory_url').primaryKey(),
  keySealed: text('key_sealed').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type SiteDomainRow = typeof siteDomains.$inferSelect;
