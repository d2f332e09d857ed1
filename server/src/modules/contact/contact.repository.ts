// The door of contact_messages: the contact form's messages, kept for the platform's people.
import type { Db } from '../../db/client';
import { contactMessages } from './contact.tables';

/** Keeps a message; its id (for the log line that says one came in). */
export async function insertContactMessage(db: Db, message: { name: string; email: string; message: string; ip: string }): Promise<string> {
  const [row] = await db.insert(contactMessages).values(message).returning({ id: contactMessages.id });
  return row.id;
}
