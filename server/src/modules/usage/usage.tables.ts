// What the platform measured of each project (migrations/0012_usage.sql): API requests per minute
// by status class, and the end users who signed in per day.
import { bigint, date, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables';

export const usageRequests = pgTable(
  'usage_requests',
  {
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    s2xx: bigint('s2xx', { mode: 'number' }).notNull().default(0),
    s3xx: bigint('s3xx', { mode: 'number' }).notNull().default(0),
    s4xx: bigint('s4xx', { mode: 'number' }).notNull().default(0),
    s5xx: bigint('s5xx', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.minute] })],
);

export const usageActiveUsers = pgTable(
  'usage_active_users',
  {
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    userId: uuid('user_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.userId] })],
);
