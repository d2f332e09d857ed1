// Builds the accounts module: repository → service → handlers, plus the bearerAuth verifier
// every console operation relies on.
import type { JWT } from '@fastify/jwt';
import type { Deps } from '../../deps';
import { bearerToken, type SchemeVerifier } from '../../http/security';
import { Errors } from '../../http/errors';
import { AccountsRepository } from './accounts.repository';
import { AccountsService, type DeveloperClaims, type TokenIssuer } from './accounts.service';
import { createAccountsHandlers } from './accounts.handlers';

export function jwtIssuer(jwt: JWT): TokenIssuer {
  return {
    sign: (claims, expiresIn) => jwt.sign(claims, { expiresIn }),
    verify: (token) => jwt.verify<DeveloperClaims>(token),
  };
}

export function createAccountsModule(deps: Deps, jwt: JWT) {
  const service = new AccountsService({
    repo: new AccountsRepository(deps.db),
    passwords: deps.passwords,
    tokens: jwtIssuer(jwt),
    secrets: deps.secrets,
    mailer: deps.mailer,
    rateLimiter: deps.rateLimiter,
    clock: deps.clock,
    publicUrl: deps.config.publicUrl,
    log: deps.log,
  });
  const bearerAuth: SchemeVerifier = async (req) => {
    const token = bearerToken(req);
    if (!token) throw Errors.unauthorized('Missing bearer token');
    req.account = await service.authenticate(token);
  };
  return { service, handlers: createAccountsHandlers(service, deps.config.publicUrl), verifiers: { bearerAuth } };
}
