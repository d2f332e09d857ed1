// Builds the accounts module: repository → service → handlers, plus the bearerAuth verifier
// every console operation relies on. As a plugin: decorates app.accounts and app.jwt.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../platform/deps';
import { bearerToken, type SchemeVerifier } from '../../platform/http/security';
import { Errors } from '../../platform/errors';
import { identityServiceDeps } from '../sign-in';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { createAccountsHandlers } from './accounts.handlers';
import { createDeveloperTokens } from './developer-tokens';

export function createAccountsModule(deps: Deps) {
  const tokens = createDeveloperTokens(deps.config.jwtSecret, deps.jwt);
  const service = new AccountsService({
    ...identityServiceDeps(deps),
    repo: new AccountsRepository(deps.db, deps.lookups),
    tokens,
    secrets: deps.secrets,
  });
  const bearerAuth: SchemeVerifier = async (req) => {
    const token = bearerToken(req);
    if (!token) throw Errors.unauthorized('Missing bearer token');
    req.account = await service.authenticate(token);
  };
  return { service, tokens, handlers: createAccountsHandlers(service, deps.config.publicUrl), verifiers: { bearerAuth } };
}

export const accountsPlugin = fp(
  async (app: FastifyInstance) => {
    const accounts = createAccountsModule(app.deps);
    app.decorate('accounts', accounts.service);
    app.decorate('jwt', accounts.tokens);
    app.contractParts.add('accounts', accounts);
  },
  { name: 'hostbase-accounts', dependencies: ['hostbase-contract-parts'], decorators: { fastify: ['deps'] } },
);

declare module 'fastify' {
  interface FastifyInstance {
    accounts: AccountsService;
  }
}
