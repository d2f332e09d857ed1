// Rows: the apps' data API (/api/db/v1, the project's key and an end user's token) and the
// console's row grid (developer token, as the project's owner role).
import type { FastifyRequest } from 'fastify';
import type { HandlerMap } from '../../platform/http/types';
import { appCaller, currentAccount, ownedProject as owned } from '../caller';
import type { ProjectRow } from '../projects';
import type { DatabaseContext } from './database.context';
import { RowsService, type RowsCaller } from './rows.service';
import { databaseSizeLimit } from './size-limit';
import { appTimeoutCaller, consoleTimeoutCaller } from './timeout-cooldown';

/** The developer in the console, as the project's owner role. */
const OWNER = (req: FastifyRequest): RowsCaller => ({ role: 'owner', timeout: consoleTimeoutCaller(currentAccount(req).id) });

/**
 * The key's project and who runs the statement: the secret key alone acts as the project's owner
 * (no access rule applies, like a service role); the publishable key, or either key with an end
 * user's token, runs as the app role under the tables' rules. A token that was sent but did not
 * verify is a 401 (caller/caller.ts appCaller).
 */
function rowsCaller(req: FastifyRequest): { project: ProjectRow; caller: RowsCaller } {
  const app = appCaller(req);
  const timeout = appTimeoutCaller(app.project.id, app.endUser?.id, app.key, req.ip);
  if (app.key === 'secret' && !app.endUser) return { project: app.project, caller: { role: 'owner', timeout } };
  return { project: app.project, caller: { role: 'app', endUserId: app.endUser?.id ?? null, timeout } };
}

export function createRowsHandlers(ctx: DatabaseContext): HandlerMap {
  const rows = new RowsService(ctx, databaseSizeLimit(ctx));
  return {
    consoleSelectDbRows: async (req) => rows.select(await owned(req), OWNER(req), req.params.table, req.body ?? {}),
    consoleInsertDbRows: async (req) => rows.insert(await owned(req), OWNER(req), req.params.table, req.body.rows),
    consoleUpdateDbRows: async (req) => rows.update(await owned(req), OWNER(req), req.params.table, req.body.filters, req.body.values),
    consoleDeleteDbRows: async (req) => rows.delete(await owned(req), OWNER(req), req.params.table, req.body.filters),

    selectDbRows: async (req) => {
      const { project, caller } = rowsCaller(req);
      return rows.select(project, caller, req.params.table, req.body ?? {});
    },
    insertDbRows: async (req) => {
      const { project, caller } = rowsCaller(req);
      return rows.insert(project, caller, req.params.table, req.body.rows);
    },
    updateDbRows: async (req) => {
      const { project, caller } = rowsCaller(req);
      return rows.update(project, caller, req.params.table, req.body.filters, req.body.values);
    },
    deleteDbRows: async (req) => {
      const { project, caller } = rowsCaller(req);
      return rows.delete(project, caller, req.params.table, req.body.filters);
    },
  };
}
