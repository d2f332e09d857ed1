// Rows of a project's tables, for the console (as the project's owner role: no access rule
// applies) and for apps (as the project's app role, with the end user's id for the row-level
// security policies). Who sees or changes which row is decided by PostgreSQL alone (access-rules.ts):
// nothing here filters rows. Each call is one statement (rows.query.ts) in a tenant transaction,
// built from the table's columns as the catalog has them (rows.columns.ts; see run()).
import { AppError, Errors } from '../../platform/errors';
import type { ProjectRow } from '../projects';
import { tenantStatement, type TenantSessionOptions } from './tenant-session';
import { tableColumns } from './rows.columns';
import { checkIdentifier } from './identifiers';
import { tenantError } from '../../platform/pg-errors';
import type { DatabaseContext } from './database.context';
import type { TableInfo } from './catalog';
import type { ProjectDatabaseRow } from './database.tables';
import { PAGE_SIZE, buildDelete, buildInsert, buildSelect, buildUpdate, type BuiltQuery, type RowFilter, type SelectRequest } from './rows.query';
import type { DatabaseSizeLimit } from './size-limit';
import { MAX_CONFIGURABLE_JSON_DEPTH, jsonValueDepth } from '../../platform/json-limits';
import { isStatementTimeout, type TimeoutCaller } from './timeout-cooldown';
import { statementTimeout } from '../../db/engine-errors';

/**
 * Who runs the statement: the developer or the secret key (owner role) or an app with an optional
 * end user; `timeout` is who is paused when it runs past the statement timeout.
 */
export type RowsCaller = ({ role: 'owner' } | { role: 'app'; endUserId: string | null }) & { timeout: TimeoutCaller };

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

/** Projects' database names and tables' columns remembered (each map is emptied when it reaches this). */
const REMEMBERED = 10_000;
const COLUMNS_REUSE_MS = 2000;
/** What a stale description of the columns can make a call answer (400 from a name or cast, 404, 422). */
const STALE_STATUSES = new Set([400, 404, 422]);

export class RowsService {
  /** Database names by project id: derived from the id, they never change. */
  private readonly names = new Map<string, ProjectDatabaseRow>();
  /** Columns by "schema.table" (undefined: no such table), with when they were read. */
  private readonly columns = new Map<string, { at: number; info: TableInfo | undefined }>();

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
    // Rows written through this API nest at most JSON_MAX_DEPTH levels, but SQL can store deeper
    // jsonb, which the answer's serializer (JSON.stringify, recursive) could not write: refused here.
    if (rows.some((r) => jsonValueDepth(r) > MAX_CONFIGURABLE_JSON_DEPTH))
      throw Errors.queryFailed(`A selected row holds JSON nested deeper than ${MAX_CONFIGURABLE_JSON_DEPTH} levels, which the API can't return: select other columns`);
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
   * limit; that check and a read of the table's columns run side by side, on connections of their
   * own, and the statement is sent when both are in.
   *
   * The columns are remembered for COLUMNS_REUSE_MS (the catalog read is the dearest statement of
   * a call). A description that went stale since (a column added, renamed, dropped or retyped,
   * here or on another instance) makes the call fail: a name PostgreSQL doesn't know, a cast or a
   * comparison it refuses (where PostgreSQL can still compare a value cast to the old type, the
   * answer is the one the caller asked for). So a call that fails with a remembered description reads the
   * catalog again and, when the table did change, runs once more with what it has now (the failed
   * attempt was one transaction, rolled back: nothing was written).
   */
  private async run<T>(project: Project, caller: RowsCaller, table: string, grows: boolean, build: (schema: string, info: TableInfo) => BuiltQuery): Promise<T[]> {
    checkIdentifier(table, 'table');
    // A caller paused after a timeout, and an insert or update at the size limit, are refused
    // before the statement is sent; both checks run beside the rest. Admitted now: should one of
    // the caller's statements be ended before the pause check has seen it, this one is refused by
    // the engine instead (db/pglite-host.ts).
    const admittedAt = Date.now();
    const paused = this.ctx.cooldown.check(caller.timeout);
    const grown = grows ? this.sizeLimit.checkWrite(project.ownerId) : undefined;
    const allowed = grown ? Promise.all([paused, grown]).then(() => undefined) : paused;
    // Awaited below; a refusal must not also be an unhandled rejection when the session fails first.
    allowed.catch(() => undefined);
    const timeoutMs = this.ctx.statementTimeoutMs;
    const who = { timeoutMs, caller: caller.timeout.key, admittedAt };
    const options: TenantSessionOptions = caller.role === 'owner' ? { role: 'owner', ...who } : { role: 'app', endUserId: caller.endUserId, ...who };
    const names = await this.namesOf(project);
    const key = `${names.schemaName}.${table}`;
    const remembered = this.columns.get(key);
    if (!remembered || Date.now() - remembered.at >= COLUMNS_REUSE_MS) {
      return this.attempt<T>(names, options, caller, this.readColumns(key, names.schemaName, table), allowed, build);
    }
    try {
      return await this.attempt<T>(names, options, caller, Promise.resolve(remembered.info), allowed, build);
    } catch (err) {
      // A statement that ran out of time ran as described: sending it again would only run out again.
      if (!(err instanceof AppError) || !STALE_STATUSES.has(err.statusCode) || err.message === statementTimeout().message) throw err;
      const now = await this.readColumns(key, names.schemaName, table);
      if (JSON.stringify(now) === JSON.stringify(remembered.info)) throw err;
      return this.attempt<T>(names, options, caller, Promise.resolve(now), allowed, build);
    }
  }

  private async attempt<T>(
    names: ProjectDatabaseRow,
    options: TenantSessionOptions,
    caller: RowsCaller,
    columns: Promise<TableInfo | undefined>,
    allowed: Promise<void>,
    build: (schema: string, info: TableInfo) => BuiltQuery,
  ): Promise<T[]> {
    const info = await columns;
    if (!info) throw Errors.notFound('Table');
    const query = build(names.schemaName, info);
    await allowed;
    try {
      // The settings, the role and the statement in one round trip (tenant-session.ts).
      return await tenantStatement<T>(this.ctx.deps.database, names, options, query);
    } catch (err) {
      // The answer is PostgreSQL's (422); the caller's next calls wait (timeout-cooldown.ts).
      if (isStatementTimeout(err)) await this.ctx.cooldown.record(caller.timeout).catch((e: unknown) => this.ctx.deps.log.warn({ err: e }, 'database: could not record a timeout pause'));
      throw tenantError(err);
    }
  }

  /**
   * The table's columns read now by the platform, on another connection (the catalog needs no
   * tenant role, and the schema name is the platform's).
   */
  private readColumns(key: string, schemaName: string, table: string): Promise<TableInfo | undefined> {
    const read = tableColumns(this.ctx.deps.database, schemaName, table).then((info) => {
      if (this.columns.size >= REMEMBERED) this.columns.clear();
      this.columns.set(key, { at: Date.now(), info });
      return info;
    });
    read.catch(() => undefined);
    return read;
  }

  /**
   * The project's schema and roles (made on its first call). They are derived from the project's
   * id and dropped only with the project, whose key and console routes then answer before this.
   */
  private async namesOf(project: Project): Promise<ProjectDatabaseRow> {
    const known = this.names.get(project.id);
    if (known) return known;
    const names = await this.ctx.names(project);
    if (this.names.size >= REMEMBERED) this.names.clear();
    this.names.set(project.id, names);
    return names;
  }
}
