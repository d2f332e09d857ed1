import { pgTable, uuid, text, timestamp, bigint } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables';

export const storageObjects = pgTable('storage_objects', {
  objectId: uuid('object_id').primaryKey(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  storageKey: text('storage_key').notNull(),
  name: text('name').notNull(),
  objectType: text('object_type').notNull(),
  objectSize: bigint('object_size', { mode: 'number' }).notNull(),
  etag: text('etag').notNull(),
  shareSegment: text('share_segment').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type StorageObjectRow = typeof storageObjects.$inferSelect;
export type NewStorageObject = typeof storageObjects.$inferInsert;
