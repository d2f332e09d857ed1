// Hosting module: the gateway hook, deploys and the hosted sites' processes. As a plugin it is
// registered before the security headers (which depend on it), so the gateway's hook runs before
// them and before the API and the console; it needs the projects service (its lifecycle section, domains).
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../platform/deps';
import type { ProjectsService, ProjectRow } from '../projects';
import { HostingRepository } from './hosting.repository';
import { HostingService } from './hosting.service';
import { HostingViews } from './hosting.views';
import { createHostingHandlers } from './hosting.handlers';
import { Gateway, type FrontDoor, StaticSites, TrafficCounter, BandwidthGuard } from './edge';
import { siteRuntime, type Runtime, SiteEnv } from './runtime';
import { SiteFiles, BuildLifecycle, INTERRUPTED, instanceIdOf, InstantDeploys, DEFAULT_ZIP_LIMITS, DeployRepository } from './deploy';
import type { AccountEvent } from '../../platform/account-events';
import { storageQuota } from '../storage';
import { planLimitGuard, usageRegistry } from '../plans';
import { bandwidthBytes } from './traffic.repository';
import { Builder, BuildSettingsService, SourceBuilds, BUILD_LOG_LIMITS, BuildLogStreams } from './build';
import { hostingLifecycle } from './hosting.lifecycle';

export interface HostingOptions {
  runtime?: Runtime;
  trafficFlushMs?: number;
  liveCacheMs?: number;
  /** The app's server front door (app.ts): static sites are then answered before Fastify. */
  frontDoor?: FrontDoor;
  /** How long a build may go without a heartbeat before another instance calls it dead. */
  buildLeaseMs?: number;
  /** How often this instance checks its site processes against the database (HostingService.reconcile). */
  reconcileMs?: number;
}

export function createHostingModule(app: FastifyInstance, deps: Deps, projects: ProjectsService, opts: HostingOptions = {}) {
  const { config } = deps;
  const repo = new HostingRepository(deps.database, deps.lookups);
  const hostingDir = path.join(config.dataDir, 'hosting');
  // Stored archives of builds from source hold dependencies too: up to the build's disk limit and zip32's entry count.
  const files = new SiteFiles(deps.objectStore, hostingDir, { ...DEFAULT_ZIP_LIMITS, maxEntries: 65_535, maxTotalBytes: Math.max(DEFAULT_ZIP_LIMITS.maxTotalBytes, config.builds.diskBytes) });
  // What went wrong outside a request (a dead build, a crashed site) names only its project: the
  // project's errors panel and its owner hear of it (account-events.ts).
  const told = async (projectId: string, event: (project: ProjectRow) => AccountEvent) => {
    const project = await projects.findById(projectId).catch(() => undefined);
    if (project) await deps.events.emit(event(project));
  };
  // Deployments are charged to the owner's storage by the storage module's own quota mechanism.
  const limits = planLimitGuard(deps);
  const usage = usageRegistry(deps);
  usage.register('bandwidth', bandwidthBytes);
  const builds = new BuildLifecycle({
    repo, files, store: deps.objectStore, quota: storageQuota(deps, limits.noticeOf('storage')), log: deps.log,
    instanceId: instanceIdOf(hostingDir), keep: config.hostingKeepDeployments, leaseMs: opts.buildLeaseMs,
    onInterrupted: (projectId) => told(projectId, (p) => ({ type: 'deploy_failed', accountId: p.ownerId, projectId, message: `A deployment failed: ${INTERRUPTED}.` })),
  });
  // The sites' processes: here, in Docker, or on the instance holding the runner lease (runtime/).
  const { runtime, leased, logs: siteLogs, siteUid } = siteRuntime({
    config, database: deps.database, log: deps.log, given: opts.runtime, instanceId: builds.instanceId,
    onCrash: (projectId, cause) =>
      void told(projectId, (p) => ({ type: 'runtime_crashed', accountId: p.ownerId, projectId, message: `The site of ${p.subdomain} crashed: ${cause}; it is restarting.` })),
    specFor: async (projectId, deploymentId) => {
      const [project, row] = await Promise.all([projects.findById(projectId).catch(() => undefined), repo.findDeployment(projectId, deploymentId)]);
      if (!project || !row || row.status === 'failed') return undefined;
      await files.ensureLocal(projectId, deploymentId);
      return service.specOf(project, row, await repo.envVersionOf(projectId));
    },
  });
  leased?.registerPeerRoutes(app);
  const traffic = new TrafficCounter(repo, deps.log, opts.trafficFlushMs ?? 5000, deps.clock);
  const env = new SiteEnv(repo, deps.secrets);
  // Builds from source run in the same sandbox as the sites (build/), one project's cache apart from another's.
  const buildLimits = config.builds;
  const builder = new Builder({
    cacheRoot: path.join(hostingDir, 'build-cache'), uidOf: siteUid, log: deps.log, egress: config.siteEgress === 'internet', pipIndexUrl: buildLimits.pipIndexUrl,
    limits: { timeoutMs: buildLimits.timeoutMs, memoryBytes: buildLimits.memoryBytes, diskBytes: buildLimits.diskBytes },
  });
  const buildSettings = new BuildSettingsService(repo, {
    timeout_seconds: Math.round(buildLimits.timeoutMs / 1000), memory_mb: Math.round(buildLimits.memoryBytes / 1048576), disk_mb: Math.round(buildLimits.diskBytes / 1048576),
  });
  const sources = new SourceBuilds({
    repo, files, lifecycle: builds, builder, settings: buildSettings, env, log: deps.log, concurrency: buildLimits.concurrency, perAccount: buildLimits.perAccount, instanceId: builds.instanceId,
    cluster: config.siteRunner === 'local' ? undefined : { mayBuild: config.siteRunner !== 'gateway' },
    refuseWith: config.siteRuntime === 'docker' ? 'Builds from source run in the process sandbox, and this platform runs sites in Docker (SITE_RUNTIME=docker): upload the built site instead.' : undefined,
  });
  const service = new HostingService({ repo, files, runtime, traffic, clock: deps.clock, log: deps.log, liveCacheMs: opts.liveCacheMs, builds, events: deps.events, env, lookups: deps.lookups, sources });
  const views = new HostingViews({ repo, runtime, traffic, clock: deps.clock });
  const bandwidth = new BandwidthGuard({ db: deps.db, clock: deps.clock, limits, usage, log: deps.log });
  traffic.afterFlush = (projectIds) => bandwidth.check(projectIds);
  const gateway = new Gateway({ platformDomain: config.platformDomain, service, files, statics: new StaticSites(), runtime, traffic, log: deps.log, bandwidth, peerToken: leased?.token });
  gateway.register(app);
  opts.frontDoor?.use(gateway.front);
  opts.frontDoor?.useUpgrade(gateway.upgrade);
  // Before listening: builds a crash interrupted are failed and their files swept (build-lifecycle.ts).
  app.addHook('onReady', async () => {
    await builds.start();
    // Several instances: builds queued by those that run no tenant code are taken here.
    sources.startWorker((row) => service.buildQueued(row, (id) => projects.findById(id)));
    await leased?.start().catch((err: unknown) => deps.log.error({ err }, 'hosting: the runner lease could not be claimed'));
  });
  // Processes of sites unpublished, deleted, switched or given a new environment on another
  // instance are stopped or restarted here even when nobody visits them (requests do it at once).
  const reconciling = setInterval(() => {
    service.reconcile().catch((err) => deps.log.warn({ err }, 'hosting: reconciling site processes failed'));
  }, opts.reconcileMs ?? 10_000);
  reconciling.unref();
  app.addHook('onClose', async () => {
    clearInterval(reconciling);
    sources.abortAll();
    builds.stop();
    await traffic.close();
    await runtime.close();
    await siteLogs.close();
  });
  // For a shutdown that cannot finish (server.ts): the hosted sites are stopped whatever else hangs.
  app.decorate('stopSites', () => runtime.close());

  projects.lifecycles.register(hostingLifecycle(deps, (project) => service.removeProject(project)));
  const instant = new InstantDeploys({ repo, manifests: new DeployRepository(deps.database), files, builds, runtime, service, clock: deps.clock, log: deps.log });
  // A build runs at most its timeout: a stream of it needs no longer (plus a margin for queueing and slow writes).
  const logStreams = new BuildLogStreams((projectId, id, from, upTo) => repo.buildLogPart(projectId, id, from, upTo), buildLimits.timeoutMs + BUILD_LOG_LIMITS.marginMs);
  return { service, logStreams, handlers: createHostingHandlers({ service, views, files, projects, instant, buildSettings, logStreams }) };
}

export const hostingPlugin = fp(
  async (app: FastifyInstance, opts: HostingOptions) => {
    const hosting = createHostingModule(app, app.deps, app.projects, opts);
    app.decorate('hosting', hosting.service);
    app.decorate('buildLogStreams', hosting.logStreams);
    // Build-log streams end before the server closes (it waits for open responses).
    app.addHook('preClose', async () => hosting.logStreams.endAll());
    app.contractParts.add('hosting', hosting);
  },
  { name: 'hostbase-hosting', dependencies: ['hostbase-contract-parts', 'hostbase-accounts', 'hostbase-projects'], decorators: { fastify: ['deps'] } },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** Stops every hosted site process this instance started. */
    stopSites(): Promise<void>;
    hosting: HostingService;
    /** This instance's build-log streams (build-log-stream.ts). */
    buildLogStreams: BuildLogStreams;
  }
}
