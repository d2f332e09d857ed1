// The console's table editor: a project's tables, their columns and app access rules. Every
// change runs as the project's owner role (so it owns what it makes) in one transaction with the
// platform's record of the table (project_db_tables, written as the platform): a failure leaves
// neither half. PostgreSQL's refusals are answered through tenantError.
import type { components } from '../../generated/openapi';
import { Errors } from '../../platform/errors';
import type { ProjectRow } from '../projects';
import { OWNER_COLUMN, applyAccess } from './access-rules';
import { describeTable, describeTables, type ColumnInfo, type TableInfo } from './catalog';
import type { DatabaseContext } from './database.context';
import { databaseUsage, schemasBytes } from './database-size';
import { tableRecords } from './database.repository';
import type { DbAccess, ProjectDatabaseRow } from './database.tables';
import { AUTO_ID, MAX_COLUMNS, addColumnSql, checkColumnSpec, createTableSql, type ColumnSpec } from './ddl';
import { checkIdentifier, quoteIdent } from './identifiers';
import { tenantError } from '../../platform/pg-errors';
import type { TenantSessionOptions, TenantTx } from './tenant-session';
import { attachTriggers } from './triggers';

type DbTable = components['schemas']['DbTable'];
type DbTableList = components['schemas']['DbTableList'];
type DbColumn = components['schemas']['DbColumn'];
type Project = Pick<ProjectRow, 'id' | 'ownerId'>;

const ACCESS_RULES: readonly DbAccess[] = ['none', 'read', 'signed_in', 'owner'];
/** Counted exactly up to here; above it PostgreSQL's estimate (a count of millions of rows is slow). */
export const EXACT_ROW_COUNT = 100_000;

const OWNER: TenantSessionOptions = { role: 'owner' };

const RELATION_STATS = `
SELECT c.relname AS name, pg_catalog.pg_total_relation_size(c.oid)::float8 AS size_bytes, c.reltuples::float8 AS reltuples
  FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND ($2::text IS NULL OR c.relname = $2)`;

interface TableRecord {
  access: DbAccess;
  lastModified: string | null;
}

export class SchemaService {
  constructor(private readonly ctx: DatabaseContext) {}

  async list(project: Project): Promise<DbTableList> {
    return this.session(project, { role: 'owner', readOnly: true }, async (tx, names) => {
      const tables = await describeTables(tx, names.schemaName);
      const views = await this.views(tx, names, project, tables);
      const { size, usage } = await tx.asPlatform(async () => ({
        size: await schemasBytes(tx, [names.schemaName]),
        usage: await databaseUsage(tx, project.ownerId),
      }));
      return { tables: views, size_bytes: size, usage_bytes: usage.usedBytes, ...(usage.limitBytes === undefined ? {} : { limit_bytes: usage.limitBytes }) };
    });
  }

  async createTable(project: Project, body: { name: string; columns: ColumnSpec[]; access?: DbAccess }): Promise<DbTable> {
    const name = checkIdentifier(body.name, 'body/name');
    const access = checkAccess(body.access ?? 'none');
    return this.session(project, OWNER, async (tx, names) => {
      const { sql } = createTableSql(names.schemaName, name, body.columns);
      if (await describeTable(tx, names.schemaName, name)) throw Errors.conflict(`Table ${name} already exists`);
      await checkReferences(tx, names.schemaName, name, body.columns, (i) => `body/columns/${i}`);
      await tx.query(sql).catch((err: unknown) => {
        // A concurrent create of the name committed first: after our check (42P07), or while ours
        // ran (its row in PostgreSQL's own catalog wins: 23505 on a pg_ index).
        const e = err as { code?: string; constraint?: string };
        const taken = e.code === '42P07' || (e.code === '23505' && e.constraint?.startsWith('pg_'));
        throw taken ? Errors.conflict(`Table ${name} already exists`) : err;
      });
      // The record first: the touch trigger updates it, and the access rule is stored with it.
      await tx.asPlatform(() => tableRecords.write(tx, project.id, name, access));
      const created = await this.table(tx, names, name);
      await attachTriggers(tx, project.id, name, created.primaryKey);
      await applyAccess(tx, names, created, access);
      return this.view(tx, names, project, name);
    });
  }

  async dropTable(project: Project, name: string, confirm: string): Promise<void> {
    checkIdentifier(name, 'body/name');
    if (confirm !== name) throw Errors.validation("body/confirm must equal the table's name");
    await this.session(project, OWNER, async (tx, names) => {
      await this.table(tx, names, name);
      // No CASCADE: a table another one references is a 409 (2BP01), its rows untouched.
      await tx.query(`DROP TABLE ${qualified(names, name)}`);
      await tx.asPlatform(() => tableRecords.delete(tx, project.id, name));
    });
  }

  async addColumn(project: Project, table: string, spec: ColumnSpec): Promise<DbTable> {
    checkIdentifier(table, 'body/table');
    checkColumnSpec(spec, 'body/column');
    return this.session(project, OWNER, async (tx, names) => {
      const info = await this.table(tx, names, table);
      if (info.columns.length >= MAX_COLUMNS) throw Errors.validation(`A table holds at most ${MAX_COLUMNS} columns; ${table} has ${info.columns.length}`);
      if (spec.primary_key && info.primaryKey.length) throw Errors.conflict(`Table ${table} already has a primary key (${info.primaryKey.join(', ')})`);
      await checkReferences(tx, names.schemaName, table, [spec], () => 'body/column', info);
      await tx.query(addColumnSql(names.schemaName, table, spec));
      if (spec.primary_key) await attachTriggers(tx, project.id, table, [spec.name]);
      await tx.asPlatform(() => tableRecords.touch(tx, project.id, table));
      return this.view(tx, names, project, table);
    });
  }

  async renameColumn(project: Project, table: string, column: string, newName: string): Promise<DbTable> {
    checkIdentifier(table, 'body/table');
    checkIdentifier(column, 'body/column');
    checkIdentifier(newName, 'body/new_name');
    return this.session(project, OWNER, async (tx, names) => {
      const info = await this.table(tx, names, table);
      const col = findColumn(info, column);
      if (column === OWNER_COLUMN && (await this.record(tx, project, table)).access === 'owner')
        throw Errors.conflict(`${OWNER_COLUMN} of a table with the owner rule can't be renamed: the rule reads it`);
      if (newName === column) return this.view(tx, names, project, table);
      await tx.query(`ALTER TABLE ${qualified(names, table)} RENAME COLUMN ${quoteIdent(column)} TO ${quoteIdent(newName)}`);
      // The row trigger names the primary key's columns.
      if (col.primaryKey) await attachTriggers(tx, project.id, table, info.primaryKey.map((c) => (c === column ? newName : c)));
      await tx.asPlatform(() => tableRecords.touch(tx, project.id, table));
      return this.view(tx, names, project, table);
    });
  }

  async dropColumn(project: Project, table: string, column: string): Promise<DbTable> {
    checkIdentifier(table, 'body/table');
    checkIdentifier(column, 'body/column');
    return this.session(project, OWNER, async (tx, names) => {
      const info = await this.table(tx, names, table);
      const col = findColumn(info, column);
      if (col.primaryKey) throw Errors.conflict(`${column} is part of the primary key of ${table}: it can't be dropped`);
      if (column === OWNER_COLUMN && (await this.record(tx, project, table)).access === 'owner')
        throw Errors.conflict(`${OWNER_COLUMN} of a table with the owner rule can't be dropped: the rule reads it`);
      if (info.columns.length === 1) throw Errors.conflict(`${column} is the last column of ${table}: drop the table instead`);
      // No CASCADE: a column another table's foreign key references is a 409 (2BP01).
      await tx.query(`ALTER TABLE ${qualified(names, table)} DROP COLUMN ${quoteIdent(column)}`);
      await tx.asPlatform(() => tableRecords.touch(tx, project.id, table));
      return this.view(tx, names, project, table);
    });
  }

  async setAccess(project: Project, table: string, access: DbAccess): Promise<DbTable> {
    checkIdentifier(table, 'body/table');
    checkAccess(access);
    return this.session(project, OWNER, async (tx, names) => {
      const info = await this.table(tx, names, table);
      await applyAccess(tx, names, info, access);
      const added = !info.columns.some((c) => c.name === OWNER_COLUMN) && access === 'owner';
      await tx.asPlatform(async () => {
        await tableRecords.setAccess(tx, project.id, table, access);
        if (added) await tableRecords.touch(tx, project.id, table);
      });
      return this.view(tx, names, project, table);
    });
  }

  /** fn as the project's role; PostgreSQL's refusals become the platform's errors. */
  private async session<T>(project: Project, options: TenantSessionOptions, fn: (tx: TenantTx, names: ProjectDatabaseRow) => Promise<T>): Promise<T> {
    try {
      return await this.ctx.session(project, options, fn);
    } catch (err) {
      // A change that waited past the timeout waited for a lock: other work holds the table.
      const code = (err as { code?: unknown } | undefined)?.code;
      if (!options.readOnly && (code === '57014' || code === '55P03'))
        throw Errors.conflict(`The table is in use by other work; try again (${(err as Error).message})`);
      throw tenantError(err);
    }
  }

  /** The project's table by name (404 when it has none). */
  private async table(tx: TenantTx, names: ProjectDatabaseRow, table: string): Promise<TableInfo> {
    const info = await describeTable(tx, names.schemaName, table);
    if (!info) throw Errors.notFound('Table');
    return info;
  }

  private async records(tx: TenantTx, project: Project, table?: string): Promise<Map<string, TableRecord>> {
    const rows = await tx.asPlatform(() =>
      tableRecords.read(tx, project.id, table ?? null),
    );
    return new Map(rows.map((r) => [r.table_name, { access: r.access, lastModified: r.last_modified === null ? null : new Date(r.last_modified).toISOString() }]));
  }

  /** The table's rule and last change; a table the platform has no record of has no app access. */
  private async record(tx: TenantTx, project: Project, table: string): Promise<TableRecord> {
    return (await this.records(tx, project, table)).get(table) ?? { access: 'none', lastModified: null };
  }

  private async view(tx: TenantTx, names: ProjectDatabaseRow, project: Project, table: string): Promise<DbTable> {
    const [view] = await this.views(tx, names, project, [await this.table(tx, names, table)], table);
    return view;
  }

  private async views(tx: TenantTx, names: ProjectDatabaseRow, project: Project, tables: TableInfo[], only?: string): Promise<DbTable[]> {
    const records = await this.records(tx, project, only);
    const stats = new Map(
      (await tx.query<{ name: string; size_bytes: number; reltuples: number }>(RELATION_STATS, [names.schemaName, only ?? null])).map((s) => [s.name, s]),
    );
    const views: DbTable[] = [];
    for (const table of tables) {
      const stat = stats.get(table.name);
      const [{ n }] = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${qualified(names, table.name)} LIMIT ${EXACT_ROW_COUNT + 1}) s`);
      const estimated = n > EXACT_ROW_COUNT;
      const record = records.get(table.name);
      views.push({
        name: table.name,
        columns: table.columns.map(columnView),
        primary_key: table.primaryKey,
        row_count: estimated ? Math.max(Math.round(Number(stat?.reltuples ?? 0)), n) : n,
        row_count_estimated: estimated,
        size_bytes: Number(stat?.size_bytes ?? 0),
        last_modified: record?.lastModified ?? null,
        access: record?.access ?? 'none',
      });
    }
    return views;
  }
}

function qualified(names: ProjectDatabaseRow, table: string): string {
  return `${quoteIdent(names.schemaName)}.${quoteIdent(table)}`;
}

function checkAccess(access: string): DbAccess {
  if (!(ACCESS_RULES as readonly string[]).includes(access)) throw Errors.validation(`body/access: Unknown access rule. Choose one of: ${ACCESS_RULES.join(', ')}.`);
  return access as DbAccess;
}

function findColumn(info: TableInfo, column: string): ColumnInfo {
  const col = info.columns.find((c) => c.name === column);
  if (!col) throw Errors.notFound('Column');
  return col;
}

function columnView(c: ColumnInfo): DbColumn {
  return { name: c.name, type: c.type, nullable: c.nullable, primary_key: c.primaryKey, unique: c.unique, default: c.default, references: c.references };
}

/** The columns of the table being made or changed (with the id a new table may get). */
function ownColumns(specs: ColumnSpec[], existing?: TableInfo): string[] {
  if (existing) return [...existing.columns.map((c) => c.name), ...specs.map((s) => s.name)];
  return [...(specs.some((s) => s.primary_key) ? [] : [AUTO_ID]), ...specs.map((s) => s.name)];
}

/**
 * Each foreign key names a table of this project's schema and one of its columns (or a column of
 * the table being made: `table` with `own` columns). Clear 400s here; PostgreSQL checks the rest
 * (the column must be a key, of a matching type: a 422 with its message).
 */
async function checkReferences(tx: TenantTx, schemaName: string, table: string, specs: ColumnSpec[], field: (i: number) => string, existing?: TableInfo): Promise<void> {
  for (const [i, spec] of specs.entries()) {
    const ref = spec.references;
    if (!ref) continue;
    const columns = ref.table === table ? ownColumns(specs, existing) : (await describeTable(tx, schemaName, ref.table))?.columns.map((c) => c.name);
    if (!columns) throw Errors.validation(`${field(i)}/references/table: ${ref.table} is not a table of this project`);
    if (!columns.includes(ref.column)) throw Errors.validation(`${field(i)}/references/column: ${ref.table} has no column ${ref.column}`);
  }
}
