// What each counted limit counts, across all of an account's projects: one query each, run inside
// a guarded write's transaction (plan-limits.ts) or for the billing screen.
import { and, count, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { projects } from '../projects/projects.tables';
import { endUsers } from '../auth-users/auth-users.tables';
import { mailAccounts, smtpDomains } from '../smtp/smtp.tables';
import { siteTraffic } from '../hosting/hosting.tables';

type Q = Pick<Db, 'select'>;

export async function projectCount(db: Q, accountId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(projects).where(eq(projects.ownerId, accountId));
  return Number(row?.n ?? 0);
}

export async function mailboxCount(db: Q, accountId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(mailAccounts)
    .innerJoin(smtpDomains, eq(smtpDomains.id, mailAccounts.domainId))
    .innerJoin(projects, eq(projects.id, smtpDomains.projectId))
    .where(eq(projects.ownerId, accountId));
  return Number(row?.n ?? 0);
}

/** End users of the account's projects who signed up or in since `since` (the month's start). */
export function activeUserCount(db: Q, accountId: string, since: Date): Promise<number> {
  return activeUsers(db, { accountId }, since);
}

/**
 * End users who signed up or in since `since`, of an account's projects or of one project: the
 * one count of monthly active users, which the plan's limit and the usage report both read.
 */
export async function activeUsers(db: Q, scope: { accountId: string } | { projectId: string }, since: Date): Promise<number> {
  const [row] =
    'accountId' in scope
      ? await db
          .select({ n: count() })
          .from(endUsers)
          .innerJoin(projects, eq(projects.id, endUsers.projectId))
          .where(and(eq(projects.ownerId, scope.accountId), gte(endUsers.lastLogin, since)))
      : await db
          .select({ n: count() })
          .from(endUsers)
          .where(and(eq(endUsers.projectId, scope.projectId), gte(endUsers.lastLogin, since)));
  return Number(row?.n ?? 0);
}

/** Bytes in and out of the account's sites since `since` (the gateway's saved hourly counts). */
export async function bandwidthBytes(db: Q, accountId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<string>`coalesce(sum(${siteTraffic.bytesIn} + ${siteTraffic.bytesOut}), 0)` })
    .from(siteTraffic)
    .innerJoin(projects, eq(projects.id, siteTraffic.projectId))
    .where(and(eq(projects.ownerId, accountId), gte(siteTraffic.hour, since)));
  return Number(row?.bytes ?? 0);
}
