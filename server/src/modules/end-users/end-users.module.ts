// Builds the end-user auth module: repository → service → handlers, the endUserBearer verifier
// (run after authKey, so req.project is the key's project). Its CORS: http/app-cors.ts.
// As a plugin: decorates app.endUsers.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../platform/deps';
import { bearerToken, headerValue, missingCredential, type SchemeVerifier } from '../../platform/http/security';
import { keyProject } from '../caller';
import { identityServiceDeps } from '../sign-in';
import { EndUsersRepository } from './end-users.repository';
import { EndUsersService } from './end-users.service';
import { createEndUsersHandlers } from './end-users.handlers';
import { createEndUserTokens } from './end-user-tokens';
import { endUsersLifecycle } from './end-users.lifecycle';
import { projectMailers } from '../mail';
import { planLimitGuard, usageRegistry } from '../plans';
import { signInRecorder } from '../usage';

export function createEndUsersModule(deps: Deps) {
  const repo = new EndUsersRepository(deps.db, deps.lookups);
  usageRegistry(deps).register('monthly_active_users', (q, projectIds, since) => repo.activeCount(q, projectIds, since));
  const service = new EndUsersService({
    ...identityServiceDeps(deps),
    repo,
    tokens: createEndUserTokens(deps.config.jwtSecret, deps.jwt),
    mailers: projectMailers(deps),
    limits: planLimitGuard(deps),
    signedIn: signInRecorder(deps),
  });
  const endUserBearer: SchemeVerifier = async (req) => {
    const token = bearerToken(req);
    if (!token) throw missingCredential('Missing bearer token');
    // The token must be signed for the project of the x-api-key, which authKey checked first.
    req.endUser = await service.authenticate(keyProject(req), token);
  };
  // The same, in X-Hostbase-User-Token after projectKey (X-Hostbase-Key).
  const endUserToken: SchemeVerifier = async (req) => {
    const token = headerValue(req, 'x-hostbase-user-token');
    if (!token) throw missingCredential('Missing end-user access token (X-Hostbase-User-Token header)');
    req.endUser = await service.authenticate(keyProject(req), token);
  };
  return { service, handlers: createEndUsersHandlers(service), verifiers: { endUserBearer, endUserToken } };
}

/** End users belong to projects (authKey, ownership of console calls). */
export const endUsersPlugin = fp(
  async (app: FastifyInstance) => {
    const authUsers = createEndUsersModule(app.deps);
    app.decorate('endUsers', authUsers.service);
    app.projects.lifecycles.register(endUsersLifecycle());
    app.contractParts.add('end-users', authUsers);
  },
  { name: 'hostbase-end-users', dependencies: ['hostbase-contract-parts', 'hostbase-projects'], decorators: { fastify: ['deps'] } },
);

declare module 'fastify' {
  interface FastifyInstance {
    endUsers: EndUsersService;
  }
}
