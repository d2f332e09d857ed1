// Who is calling, in one place. The contract's security verifiers (onRequest, platform/http/security.ts)
// put the caller on the request: the developer (bearerAuth), the project an API key names
// (bucketKey / authKey), the end user (endUserBearer). Handlers read them only through these.
// A module of its own (it was http/auth.ts): every module's handlers read it, and it names the
// rows of three modules (accounts, projects, end-users), so it can sit in none of them.
import type { FastifyRequest } from 'fastify';
import { Errors } from '../../platform/errors';
import type { AccountRow } from '../accounts/accounts.tables';
import type { ProjectRow } from '../projects/projects.tables';

/** The two app keys of a project: publishable (safe in a page, under the access rules) and secret (server-side, full access). */
export type ProjectKeyRole = 'publishable' | 'secret';
import type { EndUserRow } from '../end-users/end-users.tables';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the bearerAuth verifier. */
    account?: AccountRow;
    /** Set by the projectKey / bucketKey / authKey verifiers: the key's project. */
    project?: ProjectRow;
    /** Set with project: which of the project's keys the call carries. */
    projectKeyKind?: ProjectKeyRole;
    /** Set with project: the header the key came in (X-Hostbase-Key, or the deprecated x-api-key). */
    projectKeyHeader?: 'x-hostbase-key' | 'x-api-key';
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

/**
 * An app's call: the key's project, which key (the publishable key is subject to the access
 * rules; the secret key alone is not), and the end user of a verified token. A token that was
 * sent but did not verify is a 401, never a silently anonymous call (the contract's key-only
 * alternative lets such a call through to here).
 */
export interface AppCaller {
  project: ProjectRow;
  key: ProjectKeyRole;
  endUser?: EndUserRow;
}

export function appCaller(req: FastifyRequest): AppCaller {
  const project = keyProject(req);
  if (!req.endUser) {
    if (req.headers['x-hostbase-user-token'] !== undefined) throw Errors.unauthorized('Invalid or expired access token');
    if (req.headers.authorization !== undefined) {
      throw Errors.unauthorized(
        req.projectKeyHeader === 'x-hostbase-key'
          ? "Send the end user's access token in the X-Hostbase-User-Token header with X-Hostbase-Key (Authorization: Bearer goes with the deprecated x-api-key)"
          : 'Invalid or expired access token',
      );
    }
  }
  return { project, key: req.projectKeyKind ?? 'publishable', endUser: req.endUser };
}

/** The signed-in end user (endUserToken after projectKey, or endUserBearer after authKey). */
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
