// Hosting module: built early in app.ts so the gateway hook runs before the API and the console;
// the projects service is attached once it exists (ownership checks, delete clean-up).
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps';
import type { ProjectsService } from '../projects/projects.service';
import { HostingRepository } from './hosting.repository';
import { HostingService } from './hosting.service';
import { createHostingHandlers } from './hosting.handlers';
import { Gateway } from './gateway';
import type { FrontDoor } from './front-door';
import { ProcessRuntime } from './runtime.process';
import { DockerRuntime } from './runtime.docker';
import type { Runtime } from './runtime';
import { siteUidsFrom } from './site-identities';
import { SiteFiles } from './site-files';
import { StaticSites } from './static-site';
import { TrafficCounter } from './traffic';

export interface HostingOptions {
  runtime?: Runtime;
  trafficFlushMs?: number;
  liveCacheMs?: number;
  /** The app's server front door (app.ts): static sites are then answered before Fastify. */
  frontDoor?: FrontDoor;
}

export function createHostingModule(app: FastifyInstance, deps: Deps, opts: HostingOptions = {}) {
  const { config } = deps;
  const repo = new HostingRepository(deps.database);
  const files = new SiteFiles(deps.objectStore, path.join(config.dataDir, 'hosting'));
  const siteUid = siteUidsFrom(deps.database);
  const runtime =
    opts.runtime ??
    (config.siteRuntime === 'docker'
      ? new DockerRuntime({
          socketPath: config.dockerSocket,
          network: config.dockerNetwork,
          siteUid,
          memoryBytes: config.siteLimits.memoryBytes,
          pidsLimit: config.siteLimits.maxProcesses,
          nanoCpus: Math.round(config.siteLimits.cpus * 1e9),
        })
      : new ProcessRuntime({ log: deps.log, siteUid, limits: config.siteLimits, egress: config.siteEgress }));
  const traffic = new TrafficCounter(repo, deps.log, opts.trafficFlushMs ?? 5000);
  const service = new HostingService({ repo, files, runtime, traffic, clock: deps.clock, log: deps.log, liveCacheMs: opts.liveCacheMs });
  const gateway = new Gateway({ platformDomain: config.platformDomain, service, files, statics: new StaticSites(), runtime, traffic, log: deps.log });
  gateway.register(app);
  opts.frontDoor?.use(gateway.front);
  app.addHook('onClose', async () => {
    await traffic.close();
    await runtime.close();
  });
  // For a shutdown that cannot finish (server.ts): the hosted sites are stopped whatever else hangs.
  app.decorate('stopSites', () => runtime.close());

  let projects: ProjectsService | undefined;
  const projectsService = () => {
    if (!projects) throw new Error('hosting: attachProjects() was not called');
    return projects;
  };
  return {
    service,
    handlers: createHostingHandlers(service, files, projectsService),
    attachProjects(p: ProjectsService) {
      projects = p;
      p.onDelete('hosting', (project) => service.removeProject(project));
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Stops every hosted site process this instance started. */
    stopSites(): Promise<void>;
  }
}
