// A project's database in an archive: every table of its schema with its columns, keys, defaults,
// identity counters, foreign keys and rows, and each table's access rule (its grants and row-level
// security policies are made again from it, as are the live-changes triggers). The schema and its
// roles are made on import as a first database call makes them (provisioning.ts). What only the
// SQL box makes is named as a warning (a column of a type the format does not carry stops the
// export). On delete, the schema and its roles are dropped.
import type { TxClient } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { LifecycleError, type ProjectLifecycle } from '../projects';
import { applyAccess } from './access-rules';
import { projectDatabaseRows, tableRecords } from './database.repository';
import { tenantArchiveRows as rows } from './tenant-archive';
import { COLUMN_TYPES, describeTables, type ColumnInfo, type TableInfo } from './catalog';
import type { DbAccess } from './database.tables';
import { createTableSql, type ColumnSpec } from './ddl';
import { checkIdentifier, quoteIdent } from './identifiers';
import { Provisioning } from './provisioning';
import { attachTriggers } from './triggers';

const BY_PROJECT_ID = 'made from the project id on import (namesFor), as a first database call makes them';

const TABLES = {
  project_databases: {
    carried: [],
    leftOut: {
      project_id: "the section's project",
      schema_name: BY_PROJECT_ID,
      owner_role: BY_PROJECT_ID,
      app_role: BY_PROJECT_ID,
      created_at: 'when the target made the schema',
    },
  },
  project_db_tables: { carried: ['table_name', 'access', 'last_modified'], leftOut: { project_id: "the section's project" } },
} as const;

const ACCESS = new Set<DbAccess>(['none', 'read', 'signed_in', 'owner']);

/** One table in the archive: as the catalog describes it, its access rule and its rows' member. */
interface ArchivedTable {
  name: string;
  access: DbAccess;
  last_modified: string | null;
  columns: ColumnInfo[];
  primary_key: string[];
  rows: number;
  member: string;
}

export function databaseLifecycle(deps: Pick<Deps, 'database' | 'db'>): ProjectLifecycle {
  const provisioning = new Provisioning(deps.database, deps.db);
  return {
    name: 'database',
    after: ['projects'],
    tables: TABLES,

    async export(out) {
      const names = await projectDatabaseRows.namesIn(out.tx, out.projectId);
      if (!names) {
        out.put('database', null);
        return;
      }
      const records = new Map((await tableRecords.archived(out.tx, out.projectId, TABLES.project_db_tables.carried)).map((r) => [r.table_name, r]));
      for (const what of await rows.uncarried(out.tx, names.schema)) out.warn(`Not carried (made with the SQL box): ${what}`);
      const tables: ArchivedTable[] = [];
      // As the tables' owner: row-level security does not hide rows from it.
      await asRole(out.tx, names.ownerRole, async () => {
        for (const info of await describeTables(out.tx, names.schema)) {
          for (const c of info.columns) {
            if (!(COLUMN_TYPES as readonly string[]).includes(c.type))
              throw new LifecycleError(`Table ${info.name}: column ${c.name} is of type ${c.type}, which a project export can't carry (it carries ${COLUMN_TYPES.join(', ')})`);
          }
          const dump = out.file();
          const count = await rows.dump(out.tx, names.schema, info.name, info.columns.map((c) => c.name), info.primaryKey, dump.path);
          const record = records.get(info.name);
          tables.push({
            name: info.name,
            access: (record?.access as DbAccess | undefined) ?? 'none',
            last_modified: (record?.last_modified as string | null | undefined) ?? null,
            columns: info.columns,
            primary_key: info.primaryKey,
            rows: count,
            member: dump.member,
          });
        }
      });
      out.put('database', { tables });
      out.count('tables', tables.length);
      out.count('rows', tables.reduce((n, t) => n + t.rows, 0));
    },

    async import(input) {
      // Roles are the PostgreSQL server's: a platform on the same server that still has the
      // project would share them (and its first database call here would fail).
      if (await provisioning.rolesExist(input.tx, input.projectId))
        throw new LifecycleError(
          `the database roles of project ${input.projectId} exist on this PostgreSQL server (roles are server-wide: another platform on it still has the project). Nothing was written.`,
        );
      const database = input.row('database');
      if (!database) return;
      if (!Array.isArray(database.tables)) throw new LifecycleError("the project's database in the archive is malformed");
      const tables = database.tables as ArchivedTable[];
      const made = await provisioning.create(input.tx, input.projectId);
      await provisioning.assertSafe(made, input.tx);
      const schema = quoteIdent(made.schemaName);
      await asRole(input.tx, made.ownerRole, async () => {
        await input.tx.query(`SET LOCAL search_path = ${schema}`);
        // Tables and rows first, foreign keys after (any order of rows satisfies them once all are
        // in), triggers and access rules last (no change notices for the restore itself).
        for (const t of tables) {
          checkIdentifier(t.name, 'table');
          if (!ACCESS.has(t.access)) throw new LifecycleError(`table ${t.name} has an unknown access rule`);
          await input.tx.query(createTableSql(made.schemaName, t.name, t.columns.map(columnSpec)).sql);
          const count = await rows.load(input.tx, made.schemaName, t, input.file(t.member));
          if (count !== t.rows) throw new LifecycleError(`table ${t.name} holds ${count} rows, its record says ${t.rows}`);
        }
        for (const t of tables) {
          for (const c of t.columns) {
            if (!c.references) continue;
            checkIdentifier(c.references.table, 'references');
            checkIdentifier(c.references.column, 'references');
            await input.tx.query(
              `ALTER TABLE ${quoteIdent(t.name)} ADD FOREIGN KEY (${quoteIdent(c.name)}) REFERENCES ${schema}.${quoteIdent(c.references.table)} (${quoteIdent(c.references.column)})`,
            );
          }
          const info: TableInfo = { name: t.name, columns: t.columns, primaryKey: t.primary_key };
          await attachTriggers(input.tx, input.projectId, t.name, t.primary_key);
          await applyAccess(input.tx, made, info, t.access);
        }
      });
      await input.tx.query('SET LOCAL search_path = public');
      await tableRecords.insertArchived(
        input.tx,
        ['project_id', ...TABLES.project_db_tables.carried],
        tables.map((t) => ({ project_id: input.projectId, table_name: t.name, access: t.access, last_modified: t.last_modified })),
      );
    },

    async delete(project) {
      await provisioning.drop(project.id);
    },
  };
}

/** fn as `role` for the rest of the transaction's statements, then as the platform again. */
async function asRole(tx: TxClient, role: string, fn: () => Promise<void>): Promise<void> {
  await tx.query(`SET LOCAL ROLE ${quoteIdent(role)}`);
  await fn();
  await tx.query('RESET ROLE');
}

function columnSpec(c: ColumnInfo): ColumnSpec {
  if (!(COLUMN_TYPES as readonly string[]).includes(c.type)) throw new LifecycleError(`column ${c.name} has type ${c.type}, which this format does not carry`);
  // The owner rule's default (the signed-in end user) is made again by applyAccess.
  const given = c.default === 'end user id' ? null : c.default;
  return { name: c.name, type: c.type as ColumnSpec['type'], not_null: !c.nullable, unique: c.unique, primary_key: c.primaryKey, ...(given === null ? {} : { default: given }) } as ColumnSpec;
}
