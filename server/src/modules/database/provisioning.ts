// A project's schema and roles, made on its first database call and dropped with the project.
// Names come from the project's id only (hex), never from anything a caller sends.
//
// Before a project's role is used, the safety the tenant sessions rest on is checked in the
// database itself: a platform whose database user could not revoke set_config from PUBLIC (not a
// superuser or owner when migrations ran) or can't create roles must refuse, not run tenants'
// statements with a role they could leave.
import type { Database, Db } from '../../db/client';
import { Errors } from '../../platform/errors';
import { quoteIdent } from './identifiers';
import type { ProjectDatabaseRow } from './database.tables';
import { projectDatabaseRows } from './database.repository';

export function namesFor(projectId: string): Omit<ProjectDatabaseRow, 'projectId' | 'createdAt'> {
  const hex = projectId.replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error(`not a project id: ${projectId}`);
  return { schemaName: `p_${hex}`, ownerRole: `hb_${hex}_owner`, appRole: `hb_${hex}_app` };
}

const UNSAFE = `SELECT has_function_privilege($1, 'pg_catalog.set_config(text, text, boolean)', 'EXECUTE') AS set_config,
                       has_function_privilege($1, 'pg_catalog.pg_notify(text, text)', 'EXECUTE') AS notify,
                       r.rolsuper OR r.rolbypassrls OR r.rolcreaterole OR r.rolcreatedb AS powerful
                  FROM pg_roles r WHERE r.rolname = $1`;

export class Provisioning {
  constructor(
    private readonly database: Database,
    private readonly db: Db,
  ) {}

  find(projectId: string): Promise<ProjectDatabaseRow | undefined> {
    return projectDatabaseRows.find(this.db, projectId);
  }

  /** The project's database, made now when it has none (concurrent first calls make it once). */
  async ensure(projectId: string): Promise<ProjectDatabaseRow> {
    const found = await this.find(projectId);
    if (found) return found;
    const names = namesFor(projectId);
    try {
      await this.database.transaction(async (tx) => {
        // One maker per project; the loser finds the row when the winner commits.
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`hostbase-db:${projectId}`]);
        if (await projectDatabaseRows.exists(tx, projectId)) return;
        const owner = quoteIdent(names.ownerRole);
        const app = quoteIdent(names.appRole);
        const schema = quoteIdent(names.schemaName);
        for (const role of [owner, app]) {
          await tx.query(`CREATE ROLE ${role} NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOBYPASSRLS NOREPLICATION`);
          // The platform's user must be able to SET ROLE to it (implicit for a superuser).
          await tx.query(`GRANT ${role} TO CURRENT_USER`);
        }
        await tx.query(`CREATE SCHEMA ${schema} AUTHORIZATION ${owner}`);
        await tx.query(`REVOKE ALL ON SCHEMA ${schema} FROM PUBLIC`);
        await tx.query(`GRANT USAGE ON SCHEMA ${schema} TO ${app}`);
        await projectDatabaseRows.insert(tx, projectId, names);
      });
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === '42501') throw Errors.unavailable('The project database is unavailable: the platform\'s database user may not create roles (it needs CREATEROLE)');
      throw err;
    }
    const row = (await this.find(projectId))!;
    await this.assertSafe(row);
    return row;
  }

  /** Refuses (503) when a project role could call set_config or pg_notify, or has powers of its own. */
  async assertSafe(row: ProjectDatabaseRow): Promise<void> {
    for (const role of [row.ownerRole, row.appRole]) {
      const [r] = await this.database.query<{ set_config: boolean; notify: boolean; powerful: boolean }>(UNSAFE, [role]);
      if (!r || r.set_config || r.notify || r.powerful)
        throw Errors.unavailable(
          'The project database is unavailable: project roles could change their own role (set_config is not revoked from PUBLIC). Run the migrations as the database owner or a superuser.',
        );
    }
  }

  /** Drops the project's schema (every table and row) and its roles. */
  async drop(projectId: string): Promise<void> {
    const row = await this.find(projectId);
    if (!row) return;
    await this.database.transaction(async (tx) => {
      await tx.query(`DROP SCHEMA IF EXISTS ${quoteIdent(row.schemaName)} CASCADE`);
      for (const role of [row.ownerRole, row.appRole]) {
        await tx.query(`DROP OWNED BY ${quoteIdent(role)}`);
        await tx.query(`DROP ROLE IF EXISTS ${quoteIdent(role)}`);
      }
      await projectDatabaseRows.delete(tx, projectId);
    });
  }
}
