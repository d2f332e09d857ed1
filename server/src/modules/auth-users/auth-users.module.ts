// Builds the end-user auth module: repository → service → handlers, the endUserBearer verifier
// (run after authKey, so req.project is the key's project) and the CORS plugin for /api/auth/v1.
import type { Deps } from '../../deps';
import { bearerToken, type SchemeVerifier } from '../../http/security';
import { Errors } from '../../http/errors';
import type { ProjectsService } from '../projects/projects.service';
import { keyProject } from '../projects/projects.module';
import { AuthUsersRepository } from './auth-users.repository';
import { AuthUsersService } from './auth-users.service';
import { createAuthUsersHandlers } from './auth-users.handlers';
import { endUserCorsPlugin } from './auth-users.cors';
import { createEndUserTokens } from './enduser-tokens';

export function createAuthUsersModule(deps: Deps, projects: ProjectsService) {
  const service = new AuthUsersService({
    repo: new AuthUsersRepository(deps.db),
    passwords: deps.passwords,
    tokens: createEndUserTokens(deps.config.jwtSecret, deps.jwt),
    mailer: deps.mailer,
    rateLimiter: deps.rateLimiter,
    clock: deps.clock,
    publicUrl: deps.config.publicUrl,
    log: deps.log,
  });
  const endUserBearer: SchemeVerifier = async (req) => {
    const token = bearerToken(req);
    if (!token) throw Errors.unauthorized('Missing bearer token');
    // The token must be signed for the project of the x-api-key, which authKey checked first.
    req.endUser = await service.authenticate(keyProject(req), token);
  };
  return {
    service,
    handlers: createAuthUsersHandlers(service, projects),
    verifiers: { endUserBearer },
    cors: endUserCorsPlugin(service),
  };
}
