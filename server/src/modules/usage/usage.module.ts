// Usage module: counts every answered API call of a project (an onResponse hook: the project of
// an app key, or of a console call naming /project/{projectId}), flushes the counts every few
// seconds and on close, folds old minutes into hours (retention.ts), and serves the dashboards'
// usage reports. As a plugin it is registered before the contract, so its hook covers every
// route; decorates app.usageCounter (tests flush it).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../platform/deps';
import { isUuid } from '../../platform/ids';
import { RequestCounter } from './request-counter';
import { UsageRepository } from './usage.repository';
import { UsageService } from './usage.service';
import { createUsageHandlers } from './usage.handlers';
import { applyRetention } from './retention';
import { storageFigures } from '../storage';
import { usageRegistry } from '../plans';
import { bandwidthByBucket } from '../hosting';

export interface UsageOptions {
  flushEveryMs?: number;
  retentionEveryMs?: number;
}

export function createUsageModule(app: FastifyInstance, deps: Deps, opts: UsageOptions = {}) {
  const repo = new UsageRepository(deps.database);
  const counter = new RequestCounter(repo, deps.log, opts.flushEveryMs ?? 5000, deps.clock);
  app.addHook('onResponse', async (req, reply) => {
    if (req.project) return counter.record(req.project.id, reply.statusCode);
    const projectId = (req.params as { projectId?: unknown } | undefined)?.projectId;
    // A console call: its project is counted only if the caller owns it (checked when flushed).
    if (req.account && typeof projectId === 'string' && isUuid(projectId)) counter.record(projectId, reply.statusCode, req.account.id);
  });
  const retention = setInterval(() => {
    applyRetention(deps.database).catch((err: Error) => deps.log.warn({ err }, 'usage retention failed'));
  }, opts.retentionEveryMs ?? 60 * 60_000);
  retention.unref();
  app.addHook('onClose', async () => {
    clearInterval(retention);
    await counter.close();
  });
  const storage = storageFigures(deps.db);
  const service = new UsageService({
    repo,
    clock: deps.clock,
    storedBytes: (scope) => storage.storedBytes(scope),
    usage: usageRegistry(deps),
    db: deps.db,
    bandwidthByBucket: (projectIds, bucket, since) => bandwidthByBucket(deps.database, projectIds, bucket, since),
  });
  return { counter, service, handlers: createUsageHandlers(service) };
}

export const usagePlugin = fp(
  async (app: FastifyInstance, opts: UsageOptions) => {
    const usage = createUsageModule(app, app.deps, opts);
    app.decorate('usageCounter', usage.counter);
    app.contractParts.add('usage', { handlers: usage.handlers });
  },
  { name: 'hostbase-usage', dependencies: ['hostbase-contract-parts', 'hostbase-projects', 'hostbase-end-users', 'hostbase-hosting', 'hostbase-storage', 'hostbase-database'], decorators: { fastify: ['deps'] } },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** API requests counted in memory until the next flush. */
    usageCounter: RequestCounter;
  }
}
