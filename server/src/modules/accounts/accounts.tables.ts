import { pgTable, uuid, text, timestamp, integer, boolean, bigint } from 'drizzle-orm/pg-core';

export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  emailNormalized: text('email_normalized').notNull().unique('accounts_email_normalized_key'),
  passwordHash: text('password_hash').notNull(),
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
  tokenVersion: integer('token_version').notNull().default(0),
  mfaEnabled: boolean('mfa_enabled').notNull().default(false),
  mfaSecretEnc: text('mfa_secret_enc'),
  mfaPendingSecretEnc: text('mfa_pending_secret_enc'),
  mfaLastStep: bigint('mfa_last_step', { mode: 'number' }),
  plan: text('plan', { enum: ['hobby', 'pro', 'enterprise'] }).notNull().default('hobby'),
  /** Mails about failed deploys, quotas and security changes (notifications.ts). */
  notifyEmail: boolean('notify_email').notNull().default(true),
  notifyPush: boolean('notify_push').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type AccountRow = typeof accounts.$inferSelect;

export const accountTokens = pgTable('account_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  accountId: uuid('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  kind: text('kind', { enum: ['password_reset', 'email_verify', 'mfa_challenge', 'email_change'] }).notNull(),
  tokenHash: text('token_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  /** Codes tried against an MFA challenge; it is used up at MFA_CHALLENGE_ATTEMPTS. */
  attempts: integer('attempts').notNull().default(0),
  /** The client address that opened an MFA challenge. */
  clientAddress: text('client_address'),
  /** email_change: the address that becomes the account's once this token is used. */
  newEmail: text('new_email'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type AccountTokenKind = (typeof accountTokens.$inferSelect)['kind'];

export const mfaRecoveryCodes = pgTable('mfa_recovery_codes', {
  id: uuid('id').primaryKey().defaultRandom(),
  accountId: uuid('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Clients that completed a sign-in: exempt from the account-wide failure ceiling (0007). */
export const accountDevices = pgTable('account_devices', {
  id: uuid('id').primaryKey().defaultRandom(),
  accountId: uuid('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
});
