// Projects module: service + handlers, and the verifiers for the app-side API keys. A verifier
// puts the key's project on the request (req.project, read with keyProject() from caller/caller.ts)
// for the module that serves the call. As a plugin: decorates app.projects.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../platform/deps';
import { Errors } from '../../platform/errors';
import { headerValue, missingCredential, type SchemeVerifier } from '../../platform/http/security';
import { ProjectsRepository } from './projects.repository';
import { projectIdsOf } from './project-owners.repository';
import { KEY_ROLE, ProjectsService } from './projects.service';
import { createProjectsHandlers } from './projects.handlers';
import type { ProjectKeyKind } from './projects.tables';
import { planLimitGuard, usageRegistry } from '../plans';

export function createProjectsModule(deps: Deps) {
  const repo = new ProjectsRepository(deps.db, deps.lookups);
  // The usage registry's scope of an account (every counter's), and the projects limit's count.
  const usage = usageRegistry(deps);
  usage.provideProjects(projectIdsOf);
  usage.register('projects', async (_q, projectIds) => projectIds.length);
  const service = new ProjectsService({
    repo,
    secrets: deps.secrets,
    clock: deps.clock,
    platformDomain: deps.config.platformDomain,
    bucketDomain: deps.config.publicUrl,
    lookups: deps.lookups,
    limits: planLimitGuard(deps),
  });
  // The deprecated aliases: x-api-key with one kind of key each (bucketKey: the secret key on
  // storage; authKey: the publishable key on auth and the database).
  const keyVerifier =
    (kind: ProjectKeyKind): SchemeVerifier =>
    async (req) => {
      const key = headerValue(req, 'x-api-key');
      if (!key) throw missingCredential('Missing API key (x-api-key header)');
      const project = await service.projectForKey(kind, key);
      if (!project) throw Errors.invalidApiKey();
      req.project = project;
      req.projectKeyKind = KEY_ROLE[kind];
      req.projectKeyHeader = 'x-api-key';
    };
  // X-Hostbase-Key: the publishable or the secret key; the handlers apply the access rules by role.
  const projectKey: SchemeVerifier = async (req) => {
    const key = headerValue(req, 'x-hostbase-key');
    if (!key) throw missingCredential('Missing API key (X-Hostbase-Key header)');
    const found = await service.projectForAnyKey(key);
    if (!found) throw Errors.invalidApiKey();
    req.project = found.project;
    req.projectKeyKind = found.role;
    req.projectKeyHeader = 'x-hostbase-key';
  };
  return {
    service,
    handlers: createProjectsHandlers(service),
    verifiers: { projectKey, bucketKey: keyVerifier('bucket'), authKey: keyVerifier('authentication') },
  };
}

/** Projects belong to accounts; the modules that hold a project's data depend on this one. */
export const projectsPlugin = fp(
  async (app: FastifyInstance) => {
    const projects = createProjectsModule(app.deps);
    app.decorate('projects', projects.service);
    app.contractParts.add('projects', projects);
  },
  { name: 'hostbase-projects', dependencies: ['hostbase-contract-parts', 'hostbase-accounts'], decorators: { fastify: ['deps'] } },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** Ownership checks (ownedProject in caller/caller.ts), domains, and the delete clean-ups modules add. */
    projects: ProjectsService;
  }
}
