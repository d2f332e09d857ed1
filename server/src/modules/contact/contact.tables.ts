import { pgTable, uuid, text, timestamp } from 'drizzle-orm/pg-core';

/** Messages from the public contact form; the operator reads them here and in the log. */
export const contactMessages = pgTable('contact_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  message: text('message').notNull(),
  ip: text('ip'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
