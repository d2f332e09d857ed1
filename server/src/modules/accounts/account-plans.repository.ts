// An account's plan, for the modules whose limits depend on it: read, read under the row's lock
// (a check-then-write of a limit: concurrent writers of one account take turns, another account's
// never wait), and changed (a payment). Functions on the caller's query handle, so the lock and
// the change belong to the caller's transaction.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, type AccountRow } from './accounts.tables';

/** The account's plan; undefined for no such account. */
export async function accountPlan(q: Db, accountId: string): Promise<string | undefined> {
  const [row] = await q.select({ plan: accounts.plan }).from(accounts).where(eq(accounts.id, accountId));
  return row?.plan;
}

/** The account's plan, its row locked (FOR UPDATE) until `tx` ends; undefined for no such account. */
export async function lockAccountPlan(tx: Db, accountId: string): Promise<string | undefined> {
  const [row] = await tx.select({ plan: accounts.plan }).from(accounts).where(eq(accounts.id, accountId)).for('update');
  return row?.plan;
}

/** Sets the account's plan inside `tx` (its row locked first); the plan it had, undefined for no such account. */
export async function changeAccountPlan(tx: Db, accountId: string, plan: AccountRow['plan'], now: Date): Promise<string | undefined> {
  const from = await lockAccountPlan(tx, accountId);
  if (from !== undefined) await tx.update(accounts).set({ plan, updatedAt: now }).where(eq(accounts.id, accountId));
  return from;
}
