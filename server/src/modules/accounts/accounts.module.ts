// Builds the accounts module: repository → service → handlers, plus the bearerAuth verifier
// every console operation relies on.
import type { Deps } from '../../deps';
import { bearerToken, type SchemeVerifier } from '../../http/security';
import { Errors } from '../../http/errors';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { createAccountsHandlers } from './accounts.handlers';
import { createDeveloperTokens } from './developer-tokens';

export function createAccountsModule(deps: Deps) {
  const tokens = createDeveloperTokens(deps.config.jwtSecret, deps.jwt);
  const service = new AccountsService({
    repo: new AccountsRepository(deps.db),
    passwords: deps.passwords,
    tokens,
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
  return { service, tokens, handlers: createAccountsHandlers(service, deps.config.publicUrl), verifiers: { bearerAuth } };
}
