// Storage module: service + handlers, its lifecycle section (a project's files in archives and
// deleted with it: storage.lifecycle.ts), and the share link at the bucket domain's root
// (/s3/object-storage/...), outside the /api prefix the contract lives under.
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
import { Sharing } from './sharing';
import { SignedUrls } from './signed-urls';
import { SignedUrlSigner } from './signed-url-token';
import { storageLifecycle } from './storage.lifecycle';

/**
 * What storage asks of a project's end users (a signed URL made for one holds while the user is
 * there): app.endUsers. Stated here rather than imported, as end-users' face leads back here
 * (end-users → usage → storage).
 */
export interface EndUserLookup {
  findUser(projectId: string, userId: string): Promise<{ id: string; tokenVersion: number } | undefined>;
}

export function createStorageModule(deps: Deps, projects: ProjectsService, endUsers: EndUserLookup) {
  const accessRepo = new StorageAccessRepository(deps.db);
  const repo = new StorageRepository(deps.db, deps.lookups);
  const rules = (projectId: string) => accessRepo.rules(projectId);
  const service = new StorageService({
    repo,
    folderPage: (projectId, folder, limit, offset) => accessRepo.folderPage(projectId, folder, limit, offset),
    store: deps.objectStore,
    maxUploadBytes: deps.config.maxUploadBytes,
    bucketDomain: deps.config.publicUrl,
    clock: deps.clock,
    notice: planLimitGuard(deps).noticeOf('storage'),
    lookups: deps.lookups,
  });
  const access = new StorageAccessService({ repo: accessRepo, storage: service, publicUrl: deps.config.publicUrl });
  const sharing = new Sharing({ repo, rules });
  const signedUrls = new SignedUrls({
    storage: service,
    rules,
    endUser: (projectId, userId) => endUsers.findUser(projectId, userId),
    signer: new SignedUrlSigner(deps.config.jwtSecret),
    clock: deps.clock,
    publicUrl: deps.config.publicUrl,
    maxSeconds: deps.config.signedUrlMaxSeconds,
  });
  projects.lifecycles.register(storageLifecycle(deps));
  const parts = { storage: service, access, sharing, signedUrls };
  return { service, parts, handlers: createStorageHandlers(parts) };
}

/** A project's files: exported, imported and deleted with it (app.projects.lifecycles). */
export const storagePlugin = fp(
  async (app: FastifyInstance) => {
    const storage = createStorageModule(app.deps, app.projects, app.endUsers);
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
    app.get('/s3/object-storage/:segment/:objectId', { config: { operationId: 'downloadObject' } }, shareLinkHandler(storage.parts));
  },
  {
    name: 'hostbase-storage',
    // The share-link route is registered here: the platform's security headers come first.
    // Signed URLs ask end-users whether the end user they were made for still exists.
    dependencies: ['hostbase-contract-parts', 'hostbase-projects', 'hostbase-end-users', 'hostbase-security-headers'],
    decorators: { fastify: ['deps'] },
  },
);

declare module 'fastify' {
  interface FastifyInstance {
    storage: StorageService;
  }
}
