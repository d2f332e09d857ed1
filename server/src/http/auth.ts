// Who is calling, in one place. The contract's security verifiers (onRequest, http/security.ts)
// put the caller on the request: the developer (bearerAuth), the project an API key names
// (bucketKey / authKey), the end user (endUserBearer). Handlers read them only through these.
import type { FastifyRequest } from 'fastify';
import { Errors } from './errors';
import type { AccountRow } from '../modules/accounts/accounts.tables';
import type { ProjectRow } from '../modules/projects/projects.tables';
import type { EndUserRow } from '../modules/auth-users/auth-users.tables';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the bearerAuth verifier. */
    account?: AccountRow;
    /** Set by the bucketKey / authKey verifiers: the key's project. */
    project?: ProjectRow;
    /** Set by the endUserBearer verifier. */
    endUser?: EndUserRow;
  }
}

/** The signed-in developer (bearerAuth). */
export function currentAccount(req: FastifyRequest): AccountRow {
  if (!req.account) throw Errors.unauthorized();
  return req.account;
}

/** The project of the request's API key (bucketKey / authKey). */
export function keyProject(req: FastifyRequest): ProjectRow {
  if (!req.project) throw Errors.invalidApiKey();
  return req.project;
}

/** The signed-in end user (endUserBearer, after authKey). */
export function currentEndUser(req: FastifyRequest): EndUserRow {
  if (!req.endUser) throw Errors.unauthorized();
  return req.endUser;
}

/**
 * The developer's own project named by the path's {projectId} (or by `projectId` when the
 * operation names it elsewhere). Another account's project is a 404, indistinguishable from none.
 */
export function ownedProject(req: FastifyRequest, projectId = (req.params as { projectId?: string } | undefined)?.projectId): Promise<ProjectRow> {
  if (projectId === undefined) throw new Error(`ownedProject: ${req.routeOptions.config?.operationId ?? req.url} names no project`);
  return req.server.projects.requireOwned(currentAccount(req).id, projectId);
}
