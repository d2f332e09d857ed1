// Storage module: service + handlers, the project-deletion cleanup, and the share link at the
// bucket domain's root (/s3/object-storage/...), outside the /api prefix the contract lives under.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps';
import type { ProjectsService } from '../projects/projects.service';
import { StorageRepository } from './storage.repository';
import { StorageService } from './storage.service';
import { createStorageHandlers, shareLinkHandler } from './storage.handlers';

export function createStorageModule(deps: Deps, projects: ProjectsService) {
  const service = new StorageService({
    repo: new StorageRepository(deps.db),
    store: deps.objectStore,
    maxUploadBytes: deps.config.maxUploadBytes,
    bucketDomain: deps.config.publicUrl,
    clock: deps.clock,
  });
  projects.onDelete('storage', (project) => service.deleteProjectFiles(project));

  /** Register from app.ts: the same handler as downloadObject, at the path share links use. */
  async function shareLinkRoutes(app: FastifyInstance) {
    app.get('/s3/object-storage/:segment/:objectId', { config: { operationId: 'downloadObject' } }, shareLinkHandler(service));
  }

  return { service, handlers: createStorageHandlers(service, projects), shareLinkRoutes };
}
