// Rows of a project's tables, for the console (as the project's owner role: no access rule
// applies) and for apps (as the project's app role, with the end user's id for the row-level
// security policies). Who sees or changes which row is decided by PostgreSQL alone (access-rules.ts):
// nothing here filters rows. Each call is one statement (rows.query.ts) in a tenant transaction,
// built from the table's columns as the catalog has them at that moment (rows.columns.ts).
import { Errors } from '../../http/errors';
import type { ProjectRow } from '../projects/projects.tables';
import { inTenantSession, type TenantSessionOptions } from './tenant-session';
import { tableColumns } from './rows.columns';
import { checkIdentifier } from './identifiers';
import { tenantError } from './pg-errors';
import type { DatabaseContext } from './database.context';
import type { TableInfo } from './catalog';
import type { ProjectDatabaseRow } from './database.tables';
import { PAGE_SIZE, buildDelete, buildInsert, buildSelect, buildUpdate, type BuiltQuery, type RowFilter, type SelectRequest } from './rows.query';
import type { DatabaseSizeLimit } from './size-limit';

/** Who runs the statement: the developer (owner role) or an app with an optional end user. */
export type RowsCaller = { role: 'owner' } | { role: 'app'; endUserId: string | null };

export interface RowPage {
  rows: Record<string, unknown>[];
  page: number;
  page_size: number;
  next_page: number | null;
  total?: number;
}

export interface RowsChanged {
  message: 'inserted' | 'updated' | 'deleted';
  count: number;
  rows: Record<string, unknown>[];
}

type Project = Pick<ProjectRow, 'id' | 'ownerId'>;

/** Projects whose database names are remembered (they never change; the entry only spares a lookup). */
const NAMES_CACHE_SIZE = 10_000;

export class RowsService {
  private readonly names = new Map<string, ProjectDatabaseRow>();

  constructor(
    private readonly ctx: DatabaseContext,
    private readonly sizeLimit: DatabaseSizeLimit,
  ) {}

  async select(project: Project, caller: RowsCaller, table: string, req: SelectRequest = {}): Promise<RowPage> {
    let page = 1;
    const [row] = await this.run<{ rows: Record<string, unknown>[]; total?: number }>(project, caller, table, false, (schema, info) => {
      const built = buildSelect(schema, info, req);
      page = built.page;
      return built;
    });
    const rows = row.rows;
    const more = rows.length > PAGE_SIZE;
    return {
      rows: more ? rows.slice(0, PAGE_SIZE) : rows,
      page,
      page_size: PAGE_SIZE,
      next_page: more ? page + 1 : null,
      ...(req.count ? { total: Number(row.total) } : {}),
    };
  }

  async insert(project: Project, caller: RowsCaller, table: string, rows: Record<string, unknown>[]): Promise<RowsChanged> {
    return this.changed('inserted', await this.run(project, caller, table, true, (schema, info) => buildInsert(schema, info, rows)));
  }

  async update(project: Project, caller: RowsCaller, table: string, filters: RowFilter[] | undefined, values: Record<string, unknown>): Promise<RowsChanged> {
    return this.changed('updated', await this.run(project, caller, table, true, (schema, info) => buildUpdate(schema, info, filters, values)));
  }

  async delete(project: Project, caller: RowsCaller, table: string, filters: RowFilter[] | undefined): Promise<RowsChanged> {
    return this.changed('deleted', await this.run(project, caller, table, false, (schema, info) => buildDelete(schema, info, filters)));
  }

  private changed(message: RowsChanged['message'], [row]: { count: number; rows: Record<string, unknown>[] }[]): RowsChanged {
    return { message, count: Number(row.count), rows: row.rows };
  }

  /**
   * One statement as the caller's role on the named table of the project's schema (404 when there
   * is none). `grows`: an insert or update, refused (413) while the account is at its database
   * limit; that check, like the read of the table's columns, runs on another connection while the
   * transaction starts, and the statement waits for it.
   */
  private async run<T>(project: Project, caller: RowsCaller, table: string, grows: boolean, build: (schema: string, info: TableInfo) => BuiltQuery): Promise<T[]> {
    checkIdentifier(table, 'table');
    const allowed = grows ? this.sizeLimit.checkWrite(project.ownerId) : undefined;
    // Awaited below; a refusal must not also be an unhandled rejection when the session fails first.
    allowed?.catch(() => undefined);
    const options: TenantSessionOptions = caller.role === 'owner' ? { role: 'owner' } : { role: 'app', endUserId: caller.endUserId };
    const names = await this.namesOf(project);
    // The columns are read by the platform on another connection while the transaction starts
    // (the catalog needs no tenant role, and the schema name is the platform's): one round trip
    // less before the statement. A statement sees its own snapshot either way (read committed).
    const columns = tableColumns(this.ctx.deps.database, names.schemaName, table);
    // Both side queries ask the pool before the transaction does; the pool serves in order, so a
    // transaction waiting on them can't hold the connection they wait for.
    columns.catch(() => undefined);
    return inTenantSession(this.ctx.deps.database, names, options, async (tx) => {
      const info = await columns;
      if (!info) throw Errors.notFound('Table');
      const query = build(names.schemaName, info);
      await allowed;
      try {
        return await tx.query<T>(query.sql, query.params);
      } catch (err) {
        throw tenantError(err);
      }
    });
  }

  /**
   * The project's schema and roles (made on its first call). They are derived from the project's
   * id and dropped only with the project, whose key and console routes then answer before this.
   */
  private async namesOf(project: Project): Promise<ProjectDatabaseRow> {
    const known = this.names.get(project.id);
    if (known) return known;
    const names = await this.ctx.names(project);
    if (this.names.size >= NAMES_CACHE_SIZE) this.names.clear();
    this.names.set(project.id, names);
    return names;
  }
}
