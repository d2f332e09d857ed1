// Which projects an account owns, who owns some projects, their subdomains: for the modules that count or act
// over an account's projects (the usage registry's scope, plan limits, bandwidth, notifications)
// or route a custom domain to its project's site.
// Functions on the caller's query handle, so a count under an account's lock reads in its transaction.
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { projects } from './projects.tables';

/** The ids of the account's projects. */
export async function projectIdsOf(q: Db, ownerId: string): Promise<string[]> {
  const rows = await q.select({ id: projects.id }).from(projects).where(eq(projects.ownerId, ownerId));
  return rows.map((r) => r.id);
}

/** The distinct owners of these projects (a project deleted meanwhile has none). */
export async function ownersOf(q: Db, projectIds: string[]): Promise<string[]> {
  if (!projectIds.length) return [];
  const rows = await q.selectDistinct({ ownerId: projects.ownerId }).from(projects).where(inArray(projects.id, projectIds));
  return rows.map((r) => r.ownerId);
}

/** The subdomains of these projects, by id (a project deleted meanwhile is missing). */
export async function subdomainsOf(q: Db, projectIds: string[]): Promise<Map<string, string>> {
  if (!projectIds.length) return new Map();
  const rows = await q.select({ id: projects.id, subdomain: projects.subdomain }).from(projects).where(inArray(projects.id, projectIds));
  return new Map(rows.map((r) => [r.id, r.subdomain]));
}
