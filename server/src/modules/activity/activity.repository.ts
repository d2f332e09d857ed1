import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { projects } from '../projects/projects.tables';
import { activityLog, projectErrors, type NewActivity, type ProjectErrorKind } from './activity.tables';
import type { Severity } from '../../platform/account-events';

export interface Page {
  limit: number;
  offset: number;
}

export class ActivityRepository {
  constructor(private readonly db: Db) {}

  async insert(entry: NewActivity): Promise<void> {
    await this.db.insert(activityLog).values(entry);
  }

  /** The account's entries, newest first, with the name of each project that still exists. */
  async page(accountId: string, projectId: string | undefined, page: Page) {
    const where = projectId ? and(eq(activityLog.accountId, accountId), eq(activityLog.projectId, projectId)) : eq(activityLog.accountId, accountId);
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select({ entry: activityLog, projectName: projects.name })
        .from(activityLog)
        // Joined on the owner too: an entry can only ever name the account's own project.
        .leftJoin(projects, and(eq(projects.id, activityLog.projectId), eq(projects.ownerId, accountId)))
        .where(where)
        .orderBy(desc(activityLog.seq))
        .limit(page.limit)
        .offset(page.offset),
      this.db.select({ total: count() }).from(activityLog).where(where),
    ]);
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
    const where = eq(projects.ownerId, accountId);
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select({ error: projectErrors, projectName: projects.name })
        .from(projectErrors)
        .innerJoin(projects, eq(projects.id, projectErrors.projectId))
        .where(where)
        .orderBy(desc(projectErrors.seq))
        .limit(page.limit)
        .offset(page.offset),
      this.db.select({ total: count() }).from(projectErrors).innerJoin(projects, eq(projects.id, projectErrors.projectId)).where(where),
    ]);
    return { rows, total };
  }
}
