// The door of the activity log and the projects' errors. Project names come from the projects
// module (activity sits below it: projects writes its entries through activity's face), asked
// for the account's projects, so a name is shown only for a project the account still owns.
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { activityLog, projectErrors, type NewActivity, type ProjectErrorKind } from './activity.tables';
import type { Severity } from '../../platform/account-events';

export interface Page {
  limit: number;
  offset: number;
}

/** The account's projects, id and name (the projects module's answer, wired by activity.module.ts). */
export type ProjectsOfAccount = (accountId: string) => Promise<{ id: string; name: string }[]>;

/** Writes an entry with `db`: a transaction's, so the entry commits with the change it records (activity.context.ts). */
export async function insertEntry(db: Db, entry: NewActivity): Promise<void> {
  await db.insert(activityLog).values(entry);
}

export class ActivityRepository {
  constructor(
    private readonly db: Db,
    private readonly projectsOf: ProjectsOfAccount,
  ) {}

  private async namesOf(accountId: string): Promise<Map<string, string>> {
    return new Map((await this.projectsOf(accountId)).map((p) => [p.id, p.name]));
  }

  async insert(entry: NewActivity): Promise<void> {
    await this.db.insert(activityLog).values(entry);
  }

  /** The account's entries, newest first, with the name of each project that still exists. */
  async page(accountId: string, projectId: string | undefined, page: Page) {
    const where = projectId ? and(eq(activityLog.accountId, accountId), eq(activityLog.projectId, projectId)) : eq(activityLog.accountId, accountId);
    const [entries, [{ total }], names] = await Promise.all([
      this.db.select().from(activityLog).where(where).orderBy(desc(activityLog.seq)).limit(page.limit).offset(page.offset),
      this.db.select({ total: count() }).from(activityLog).where(where),
      this.namesOf(accountId),
    ]);
    // Named from the account's own projects only: an entry can only ever name the account's own project.
    const rows = entries.map((entry) => ({ entry, projectName: (entry.projectId && names.get(entry.projectId)) ?? null }));
    return { rows, total };
  }

  async insertError(error: { projectId: string; kind: ProjectErrorKind; severity: Severity; message: string }): Promise<void> {
    await this.db.insert(projectErrors).values(error);
  }

  async errorsPage(projectId: string, page: Page) {
    const where = eq(projectErrors.projectId, projectId);
    const [rows, [{ total }]] = await Promise.all([
      this.db.select().from(projectErrors).where(where).orderBy(desc(projectErrors.seq)).limit(page.limit).offset(page.offset),
      this.db.select({ total: count() }).from(projectErrors).where(where),
    ]);
    return { rows, total };
  }

  /** Errors of every project the account owns, newest first, with the project's name. */
  async accountErrorsPage(accountId: string, page: Page) {
    const names = await this.namesOf(accountId);
    if (!names.size) return { rows: [], total: 0 };
    const where = inArray(projectErrors.projectId, [...names.keys()]);
    const [errors, [{ total }]] = await Promise.all([
      this.db.select().from(projectErrors).where(where).orderBy(desc(projectErrors.seq)).limit(page.limit).offset(page.offset),
      this.db.select({ total: count() }).from(projectErrors).where(where),
    ]);
    return { rows: errors.map((error) => ({ error, projectName: names.get(error.projectId)! })), total };
  }
}
