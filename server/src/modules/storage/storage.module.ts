// Storage module: service + handlers, the project-deletion cleanup, and the share link at the
// bucket domain's root (/s3/object-storage/...), outside the /api prefix the contract lives under.
// As a plugin: decorates app.storage.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../platform/deps';
import type { ProjectsService } from '../projects';
import { StorageRepository } from './storage.repository';
import { StorageService } from './storage.service';
import { StorageAccessRepository } from './storage-access.repository';
import { StorageAccessService } from './storage-access';
import { planLimitGuard } from '../plans';
import { createStorageHandlers, shareLinkHandler } from './storage.handlers';

export function createStorageModule(deps: Deps, projects: ProjectsService) {
  const accessRepo = new StorageAccessRepository(deps.db);
  const service = new StorageService({
    repo: new StorageRepository(deps.db, deps.lookups),
    folderPage: (projectId, folder, limit, offset) => accessRepo.folderPage(projectId, folder, limit, offset),
    store: deps.objectStore,
    maxUploadBytes: deps.config.maxUploadBytes,
    bucketDomain: deps.config.publicUrl,
    clock: deps.clock,
    notice: planLimitGuard(deps).noticeOf('storage'),
    lookups: deps.lookups,
  });
  const access = new StorageAccessService({ repo: accessRepo, storage: service, publicUrl: deps.config.publicUrl });
  projects.onDelete('storage', (project) => service.deleteProjectFiles(project));
  return { service, handlers: createStorageHandlers(service, access) };
}

/** A project's files: deleted with it (app.projects.onDelete). */
export const storagePlugin = fp(
  async (app: FastifyInstance) => {
    const storage = createStorageModule(app.deps, app.projects);
    app.decorate('storage', storage.service);
    // Bytes a killed process left without their row, swept once the server is up (in the
    // background: a large bucket takes a while to list, and serving does not wait for it).
    app.addHook('onListen', () => {
      storage.service.sweepOrphans().then(
        (removed) => removed && app.log.warn({ removed }, 'storage: removed files left without their row by an interrupted upload or deletion'),
        (err: unknown) => app.log.warn({ err }, 'storage: the sweep of files without their row failed; it runs again at the next start'),
      );
    });
    app.contractParts.add('storage', storage);
    // The same handler as downloadObject, at the path share links use.
    app.get('/s3/object-storage/:segment/:objectId', { config: { operationId: 'downloadObject' } }, shareLinkHandler(storage.service));
  },
  {
    name: 'hostbase-storage',
    // The share-link route is registered here: the platform's security headers come first.
    dependencies: ['hostbase-contract-parts', 'hostbase-projects', 'hostbase-security-headers'],
    decorators: { fastify: ['deps'] },
  },
);

declare module 'fastify' {
  interface FastifyInstance {
    storage: StorageService;
  }
}
