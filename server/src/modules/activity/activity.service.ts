import type { ProjectRow } from '../projects/projects.tables';
import type { ActivityRepository } from './activity.repository';

export const DEFAULT_PAGE_SIZE = 20;

export interface Paging {
  page?: number;
  page_size?: number;
}

function pageOf(paging: Paging | undefined) {
  const page = paging?.page ?? 1;
  const pageSize = paging?.page_size ?? DEFAULT_PAGE_SIZE;
  return { page, pageSize, limit: pageSize, offset: (page - 1) * pageSize };
}

function pageAnswer(page: number, pageSize: number, total: number) {
  return { total, page, page_size: pageSize, next_page: page * pageSize < total ? page + 1 : null };
}

export class ActivityService {
  constructor(private readonly repo: ActivityRepository) {}

  /** The account's log, or one of its projects' (the caller checked the project is theirs). */
  async activity(accountId: string, project: ProjectRow | undefined, paging: Paging | undefined) {
    const { page, pageSize, ...window } = pageOf(paging);
    const { rows, total } = await this.repo.page(accountId, project?.id, window);
    return {
      entries: rows.map(({ entry, projectName }) => ({
        id: entry.id,
        operation_id: entry.operationId,
        summary: entry.summary,
        project_id: entry.projectId,
        project_name: projectName,
        ip: entry.ip,
        created_at: entry.createdAt.toISOString(),
      })),
      ...pageAnswer(page, pageSize, total),
    };
  }

  async errors(project: ProjectRow, paging: Paging | undefined) {
    const { page, pageSize, ...window } = pageOf(paging);
    const { rows, total } = await this.repo.errorsPage(project.id, window);
    return {
      errors: rows.map((e) => ({ id: e.id, kind: e.kind, severity: e.severity, message: e.message, created_at: e.createdAt.toISOString() })),
      ...pageAnswer(page, pageSize, total),
    };
  }

  /** Errors across the account's projects (the console's browser alerts). */
  async accountErrors(accountId: string, paging: Paging | undefined) {
    const { page, pageSize, ...window } = pageOf(paging);
    const { rows, total } = await this.repo.accountErrorsPage(accountId, window);
    return {
      errors: rows.map(({ error: e, projectName }) => ({
        id: e.id,
        kind: e.kind,
        severity: e.severity,
        message: e.message,
        created_at: e.createdAt.toISOString(),
        project_id: e.projectId,
        project_name: projectName,
      })),
      ...pageAnswer(page, pageSize, total),
    };
  }
}
