import { pgTable, uuid, text, timestamp, bigint, boolean, primaryKey } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables';
import { endUsers } from '../end-users/end-users.tables';

export const storageObjects = pgTable('storage_objects', {
  objectId: uuid('object_id').primaryKey(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  storageKey: text('storage_key').notNull(),
  name: text('name').notNull(),
  objectType: text('object_type').notNull(),
  objectSize: bigint('object_size', { mode: 'number' }).notNull(),
  etag: text('etag').notNull(),
  /** The share link's secret segment while the developer shares the file; null while it is private. */
  shareSegment: text('share_segment'),
  /** "" for the bucket's root, else names joined by "/" (access-rules.ts). */
  folder: text('folder').notNull().default(''),
  /** The end user who uploaded it with an app key; null for the console and the secret key alone. */
  ownerId: uuid('owner_id').references(() => endUsers.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type StorageObjectRow = typeof storageObjects.$inferSelect;
export type NewStorageObject = typeof storageObjects.$inferInsert;

export const storageAccessValues = ['none', 'read', 'signed_in', 'owner'] as const;
export type StorageAccess = (typeof storageAccessValues)[number];

export const storageRules = pgTable(
  'storage_rules',
  {
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    folder: text('folder').notNull(),
    access: text('access', { enum: storageAccessValues }).notNull(),
    /** The files it governs are readable by anyone at their public URL. */
    public: boolean('public').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.folder] })],
);

export type StorageRuleRow = typeof storageRules.$inferSelect;

export const signedLinkIssuers = ['developer', 'key', 'user'] as const;
export type SignedLinkIssuer = (typeof signedLinkIssuers)[number];

export const storageSignedLinks = pgTable('storage_signed_links', {
  id: uuid('id').primaryKey(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  objectId: uuid('object_id').notNull().references(() => storageObjects.objectId, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  createdBy: uuid('created_by').references(() => endUsers.id, { onDelete: 'set null' }),
  /** Whom each download checks against the rules (migrations/0027): the developer, the publishable key alone, or createdBy. */
  issuer: text('issuer', { enum: signedLinkIssuers }).notNull().default('developer'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  downloadCount: bigint('download_count', { mode: 'number' }).notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type SignedLinkRow = typeof storageSignedLinks.$inferSelect;
