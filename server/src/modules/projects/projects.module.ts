// Projects module: service + handlers, and the verifiers for the app-side API keys. A verifier
// puts the key's project on the request (req.project) for the module that serves the call.
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps';
import { Errors } from '../../http/errors';
import type { SchemeVerifier } from '../../http/security';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';
import { createProjectsHandlers } from './projects.handlers';
import type { ProjectRow, ProjectKeyKind } from './projects.tables';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the bucketKey / authKey verifiers. */
    project?: ProjectRow;
  }
}

export function keyProject(req: FastifyRequest): ProjectRow {
  if (!req.project) throw Errors.invalidApiKey();
  return req.project;
}

export function createProjectsModule(deps: Deps) {
  const service = new ProjectsService({
    repo: new ProjectsRepository(deps.db),
    secrets: deps.secrets,
    clock: deps.clock,
    platformDomain: deps.config.platformDomain,
    bucketDomain: deps.config.publicUrl,
  });
  const keyVerifier =
    (kind: ProjectKeyKind): SchemeVerifier =>
    async (req) => {
      const header = req.headers['x-api-key'];
      const key = Array.isArray(header) ? header[0] : header;
      if (!key) throw Errors.unauthorized('Missing API key (x-api-key header)');
      const project = await service.projectForKey(kind, key);
      if (!project) throw Errors.invalidApiKey();
      req.project = project;
    };
  return {
    service,
    handlers: createProjectsHandlers(service),
    verifiers: { bucketKey: keyVerifier('bucket'), authKey: keyVerifier('authentication') },
  };
}
