import { sql } from 'drizzle-orm';
import { pgTable, uuid, text, timestamp, boolean, bigint, jsonb, uniqueIndex, index } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables';

/** One mail domain per project (migrations/0009_mail.sql). */
export const smtpDomains = pgTable('smtp_domains', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: uuid('project_id').notNull().unique().references(() => projects.id, { onDelete: 'cascade' }),
  /** Claimed by any number of projects while unverified; verified by one at most (index below). */
  domain: text('domain').notNull(),
  verified: boolean('verified').notNull().default(false),
  verifiedAt: timestamp('verified_at', { withTimezone: true }),
  dkimSelector: text('dkim_selector').notNull(),
  /** Sealed with the platform's secret box. */
  dkimPrivateKey: text('dkim_private_key').notNull(),
  /** Base64 SPKI DER, as published in the DKIM record's p= tag. */
  dkimPublicKey: text('dkim_public_key').notNull(),
  /** The last verification's outcome per record key (mx, spf, dmarc, dkim): found or not. */
  dnsCheck: jsonb('dns_check').$type<Record<string, boolean>>(),
  dnsCheckedAt: timestamp('dns_checked_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('smtp_domains_verified_domain_key').on(t.domain).where(sql`verified`),
  index('smtp_domains_domain_idx').on(t.domain),
]);

export const mailAccounts = pgTable('mail_accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  domainId: uuid('domain_id').notNull().references(() => smtpDomains.id, { onDelete: 'cascade' }),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  active: boolean('active').notNull().default(true),
  quotaBytes: bigint('quota_bytes', { mode: 'number' }).notNull().default(5368709120),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type SmtpDomainRow = typeof smtpDomains.$inferSelect;
export type NewSmtpDomain = typeof smtpDomains.$inferInsert;
export type MailAccountRow = typeof mailAccounts.$inferSelect;
export type NewMailAccount = typeof mailAccounts.$inferInsert;
