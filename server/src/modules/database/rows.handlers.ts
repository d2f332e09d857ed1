// Rows: the apps' data API (/api/db/v1, the project's key and an end user's token) and the
// console's row grid (developer token, as the project's owner role).
import type { FastifyRequest } from 'fastify';
import type { HandlerMap } from '../../http/types';
import { keyProject, ownedProject as owned } from '../../http/auth';
import { Errors } from '../../http/errors';
import type { ProjectRow } from '../projects/projects.tables';
import type { DatabaseContext } from './database.context';
import { RowsService, type RowsCaller } from './rows.service';
import { databaseSizeLimit } from './size-limit';

const OWNER: RowsCaller = { role: 'owner' };

/**
 * The key's project and the end user. The contract lets a call with a bad bearer token through
 * as key-only (its second security alternative); a token that was sent but is not a valid access
 * token of this project must be a 401, never a silently anonymous call.
 */
function appCaller(req: FastifyRequest): { project: ProjectRow; caller: RowsCaller } {
  const project = keyProject(req);
  if (req.headers.authorization !== undefined && !req.endUser) throw Errors.unauthorized('Invalid or expired access token');
  return { project, caller: { role: 'app', endUserId: req.endUser?.id ?? null } };
}

export function createRowsHandlers(ctx: DatabaseContext): HandlerMap {
  const rows = new RowsService(ctx, databaseSizeLimit(ctx));
  return {
    consoleSelectDbRows: async (req) => rows.select(await owned(req), OWNER, req.params.table, req.body ?? {}),
    consoleInsertDbRows: async (req) => rows.insert(await owned(req), OWNER, req.params.table, req.body.rows),
    consoleUpdateDbRows: async (req) => rows.update(await owned(req), OWNER, req.params.table, req.body.filters, req.body.values),
    consoleDeleteDbRows: async (req) => rows.delete(await owned(req), OWNER, req.params.table, req.body.filters),

    selectDbRows: async (req) => {
      const { project, caller } = appCaller(req);
      return rows.select(project, caller, req.params.table, req.body ?? {});
    },
    insertDbRows: async (req) => {
      const { project, caller } = appCaller(req);
      return rows.insert(project, caller, req.params.table, req.body.rows);
    },
    updateDbRows: async (req) => {
      const { project, caller } = appCaller(req);
      return rows.update(project, caller, req.params.table, req.body.filters, req.body.values);
    },
    deleteDbRows: async (req) => {
      const { project, caller } = appCaller(req);
      return rows.delete(project, caller, req.params.table, req.body.filters);
    },
  };
}
