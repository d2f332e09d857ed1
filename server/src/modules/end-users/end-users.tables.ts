import { pgTable, uuid, text, timestamp, integer, boolean, uniqueIndex, index } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables';

export const authSettings = pgTable('auth_settings', {
  projectId: uuid('project_id').primaryKey().references(() => projects.id, { onDelete: 'cascade' }),
  allowedOrigins: text('allowed_origins').array().notNull().default([]),
  siteUrl: text('site_url'),
  blockCommonPasswords: boolean('block_common_passwords').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type AuthSettingsRow = typeof authSettings.$inferSelect;

export const endUsers = pgTable(
  'end_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    emailNormalized: text('email_normalized').notNull(),
    passwordHash: text('password_hash').notNull(),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    tokenVersion: integer('token_version').notNull().default(0),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('end_users_project_email_key').on(t.projectId, t.emailNormalized),
    index('end_users_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc()),
  ],
);

export type EndUserRow = typeof endUsers.$inferSelect;

export const endUserRefreshTokens = pgTable('end_user_refresh_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => endUsers.id, { onDelete: 'cascade' }),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  familyId: uuid('family_id').notNull(),
  tokenHash: text('token_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  rotatedAt: timestamp('rotated_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type RefreshTokenRow = typeof endUserRefreshTokens.$inferSelect;

export const endUserTokens = pgTable('end_user_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => endUsers.id, { onDelete: 'cascade' }),
  kind: text('kind', { enum: ['password_reset', 'email_verify'] }).notNull(),
  tokenHash: text('token_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type EndUserTokenKind = (typeof endUserTokens.$inferSelect)['kind'];

/** End users' clients that completed a sign-in: exempt from the per-user failure ceiling (0007). */
export const endUserDevices = pgTable('end_user_devices', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => endUsers.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
});
