// Which runtime runs this instance's sites, from the configuration: the process sandbox or Docker
// here (or a test's own), and with several instances (SITE_RUNNER lease or gateway) the runner
// lease in front of it, so one instance runs the sites and the others proxy to it.
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../db/client';
import type { Config } from '../../../config';
import type { Runtime, SiteSpec } from './runtime';
import { ProcessRuntime } from './runtime.process';
import { DockerRuntime } from './runtime.docker';
import { LeasedRuntime } from './runtime.leased';
import { DatabaseLogs } from './runtime-logs';
import { siteUidsFrom, type SiteUidOf } from './site-identities';

export interface SiteRuntimeOptions {
  config: Config;
  database: Database;
  log: FastifyBaseLogger;
  /** A runtime of a test's own, in place of the configured one (the runner lease still wraps it). */
  given?: Runtime;
  /** This instance, as the runner lease names it. */
  instanceId: string;
  /** A site's process crashed (it is restarting): its owner hears of it. */
  onCrash(projectId: string, cause: string): void;
  /** What the lease holder starts for a site another instance asks it for (undefined: nothing live). */
  specFor(projectId: string, deploymentId: string): Promise<SiteSpec | undefined>;
}

export interface SiteRuntime {
  runtime: Runtime;
  /** The runner lease, with several instances. */
  leased?: LeasedRuntime;
  /** The sites' output, kept in the database: every instance shows it (runtime-logs.ts). */
  logs: DatabaseLogs;
  /** Each site's own user id (site-identities.ts): builds run as it too. */
  siteUid: SiteUidOf;
}

export function siteRuntime(o: SiteRuntimeOptions): SiteRuntime {
  const { config } = o;
  const siteUid = siteUidsFrom(o.database);
  const logs = new DatabaseLogs(o.database, o.log);
  const local: Runtime =
    o.given ??
    (config.siteRuntime === 'docker'
      ? new DockerRuntime({
          socketPath: config.dockerSocket,
          network: config.dockerNetwork,
          siteUid,
          memoryBytes: config.siteLimits.memoryBytes,
          pidsLimit: config.siteLimits.maxProcesses,
          nanoCpus: Math.round(config.siteLimits.cpus * 1e9),
        })
      : new ProcessRuntime({
          log: o.log, siteUid, limits: config.siteLimits, egress: config.siteEgress, logs,
          onCrash: ({ projectId }, cause) => o.onCrash(projectId, cause),
        }));
  const leased =
    config.siteRunner === 'local'
      ? undefined
      : new LeasedRuntime({
          local, database: o.database, log: o.log, instanceId: o.instanceId, url: config.instanceUrl, secret: config.jwtSecret, mode: config.siteRunner,
          sharedLogs: o.given ? undefined : logs,
          specFor: o.specFor,
        });
  return { runtime: leased ?? local, leased, logs, siteUid };
}
