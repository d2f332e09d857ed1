// Tables for the row API's tests, made the way the platform makes them (as the project's owner
// role, with the change triggers, the platform's record and the access rule), without going
// through the console's table API.
import type { TestApp } from '../helpers/app';
import { describeTable } from '../../server/src/modules/database/catalog';
import { attachTriggers } from '../../server/src/modules/database/triggers';
import { applyAccess } from '../../server/src/modules/database/access-rules';
import { quoteIdent } from '../../server/src/modules/database/identifiers';
import type { DbAccess } from '../../server/src/modules/database/database.tables';

/** CREATE TABLE "name" (columns) in the project's schema, with the given access rule. */
export async function makeTable(t: TestApp, project: { id: string }, name: string, columns: string, access: DbAccess = 'none'): Promise<void> {
  await t.app.projectDatabase.session(project, { role: 'owner' }, async (tx, names) => {
    await tx.query(`CREATE TABLE ${quoteIdent(name)} (${columns})`);
    const info = (await describeTable(tx, names.schemaName, name))!;
    await tx.asPlatform(() => tx.query('INSERT INTO public.project_db_tables (project_id, table_name, access) VALUES ($1, $2, $3)', [project.id, name, access]));
    await attachTriggers(tx, project.id, name, info.primaryKey);
    await applyAccess(tx, names, info, access);
  });
}

/** Changes the table's access rule (as the console will). */
export async function setAccess(t: TestApp, project: { id: string }, name: string, access: DbAccess): Promise<void> {
  await t.app.projectDatabase.session(project, { role: 'owner' }, async (tx, names) => {
    const info = (await describeTable(tx, names.schemaName, name))!;
    await applyAccess(tx, names, info, access);
    await tx.asPlatform(() => tx.query('UPDATE public.project_db_tables SET access = $3 WHERE project_id = $1 AND table_name = $2', [project.id, name, access]));
  });
}

/** The table's rows as the owner sees them, in primary-key order (for checking what was written). */
export async function allRows(t: TestApp, project: { id: string }, name: string, orderBy = 'id'): Promise<Record<string, unknown>[]> {
  return t.app.projectDatabase.session(project, { role: 'owner' }, (tx) => tx.query(`SELECT * FROM ${quoteIdent(name)} ORDER BY ${quoteIdent(orderBy)}`));
}

export type RowsVerb = 'select' | 'insert' | 'update' | 'delete';

/** The console's row grid API: POST /api/project/{id}/database/tables/{table}/rows/{verb} with the developer's token. */
export function consoleRows(t: TestApp, project: { id: string }, table: string, verb: RowsVerb, body: unknown, token: string) {
  return t.post(`/project/${project.id}/database/tables/${encodeURIComponent(table)}/rows/${verb}`, body, token);
}

/** The apps' data API: POST /api/db/v1/{table}/{verb} with the project's key and, when given, an end user's access token. */
export function appRows(t: TestApp, key: string | undefined, table: string, verb: RowsVerb, body: unknown, accessToken?: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/api/db/v1/${encodeURIComponent(table)}/${verb}`,
    headers: { ...(key ? { 'x-api-key': key } : {}), ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}), ...headers },
    ...(body === undefined ? {} : { payload: body as object }),
  });
}
