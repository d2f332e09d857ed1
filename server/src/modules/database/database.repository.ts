// The door of the database module's own tables: project_databases (each project's schema and
// roles) and project_db_tables (the platform's record of each table: its access rule, its last
// change). Raw SQL on a query handle the caller chooses: provisioning runs inside its own
// transaction, the table editor inside a tenant session as the platform (tx.asPlatform), whose
// search_path is the project's schema (so the names here are qualified).
import { eq, inArray } from 'drizzle-orm';
import type { Db, TxClient } from '../../db/client';
import { projectDatabases, type DbAccess, type ProjectDatabaseRow } from './database.tables';

type Querier = Pick<TxClient, 'query'>;

/** project_databases: one row per project whose database was made. */
export const projectDatabaseRows = {
  async find(db: Db, projectId: string): Promise<ProjectDatabaseRow | undefined> {
    const [row] = await db.select().from(projectDatabases).where(eq(projectDatabases.projectId, projectId));
    return row;
  },

  /** The schema names of these projects' databases (those made so far). */
  async schemaNames(db: Db, projectIds: string[]): Promise<string[]> {
    if (!projectIds.length) return [];
    const rows = await db.select({ name: projectDatabases.schemaName }).from(projectDatabases).where(inArray(projectDatabases.projectId, projectIds));
    return rows.map((r) => r.name);
  },

  async exists(q: Querier, projectId: string): Promise<boolean> {
    const [row] = await q.query('SELECT 1 FROM public.project_databases WHERE project_id = $1', [projectId]);
    return row !== undefined;
  },

  async insert(q: Querier, projectId: string, names: Omit<ProjectDatabaseRow, 'projectId' | 'createdAt'>): Promise<void> {
    await q.query('INSERT INTO public.project_databases (project_id, schema_name, owner_role, app_role) VALUES ($1, $2, $3, $4)', [
      projectId,
      names.schemaName,
      names.ownerRole,
      names.appRole,
    ]);
  },

  async delete(q: Querier, projectId: string): Promise<void> {
    await q.query('DELETE FROM public.project_databases WHERE project_id = $1', [projectId]);
  },
};

export interface TableRecordRow {
  table_name: string;
  access: DbAccess;
  last_modified: Date | string | null;
}

/** project_db_tables: the platform's record of a project's table. */
export const tableRecords = {
  /** The project's records, or the one of `table`. */
  read(q: Querier, projectId: string, table: string | null): Promise<TableRecordRow[]> {
    return q.query<TableRecordRow>(
      'SELECT table_name, access, last_modified FROM public.project_db_tables WHERE project_id = $1 AND ($2::text IS NULL OR table_name = $2)',
      [projectId, table],
    );
  },

  /** A table made (or remade): its rule, changed now. */
  async write(q: Querier, projectId: string, table: string, access: DbAccess): Promise<void> {
    await q.query(
      `INSERT INTO public.project_db_tables (project_id, table_name, access, last_modified) VALUES ($1, $2, $3, now())
         ON CONFLICT (project_id, table_name) DO UPDATE SET access = EXCLUDED.access, last_modified = now()`,
      [projectId, table, access],
    );
  },

  /** The table's structure or rows changed now. */
  async touch(q: Querier, projectId: string, table: string): Promise<void> {
    await q.query(
      `INSERT INTO public.project_db_tables (project_id, table_name, last_modified) VALUES ($1, $2, now())
         ON CONFLICT (project_id, table_name) DO UPDATE SET last_modified = now()`,
      [projectId, table],
    );
  },

  async setAccess(q: Querier, projectId: string, table: string, access: DbAccess): Promise<void> {
    await q.query(
      `INSERT INTO public.project_db_tables (project_id, table_name, access) VALUES ($1, $2, $3)
         ON CONFLICT (project_id, table_name) DO UPDATE SET access = EXCLUDED.access`,
      [projectId, table, access],
    );
  },

  async delete(q: Querier, projectId: string, table: string): Promise<void> {
    await q.query('DELETE FROM public.project_db_tables WHERE project_id = $1 AND table_name = $2', [projectId, table]);
  },

  /** The table's access rule; 'none' when the platform has no record of it. */
  async accessOf(q: Querier, projectId: string, table: string): Promise<DbAccess> {
    const [row] = await q.query<{ access: DbAccess }>('SELECT access FROM public.project_db_tables WHERE project_id = $1 AND table_name = $2', [projectId, table]);
    return row?.access ?? 'none';
  },
};
