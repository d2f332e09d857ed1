// The platform's records of each project's database (migrations/0010_project_database.sql). The
// tables themselves live in the project's own schema, described by PostgreSQL's catalog.
import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables';

export const projectDatabases = pgTable('project_databases', {
  projectId: uuid('project_id').primaryKey().references(() => projects.id, { onDelete: 'cascade' }),
  schemaName: text('schema_name').notNull().unique(),
  ownerRole: text('owner_role').notNull().unique(),
  appRole: text('app_role').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const projectDbTables = pgTable(
  'project_db_tables',
  {
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    tableName: text('table_name').notNull(),
    access: text('access').$type<DbAccess>().notNull().default('none'),
    lastModified: timestamp('last_modified', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.tableName] })],
);

export type DbAccess = 'none' | 'read' | 'signed_in' | 'owner';
export type ProjectDatabaseRow = typeof projectDatabases.$inferSelect;
