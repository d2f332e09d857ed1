// How Node, PHP and Flask sites run behind the gateway. The process runtime (runtime.process.ts)
// is the default; runtime.docker.ts speaks the Docker Engine API for production hosts.
import type { SiteEnvSnapshot } from './site-env';

/** The kinds of site that run as a process (the others are served as files). */
export type RuntimeKind = 'node' | 'php' | 'flask';

export interface SiteSpec {
  projectId: string;
  deploymentId: string;
  kind: RuntimeKind;
  /** Local folder holding the deployment's served root (the runtime copies it, never writes here). */
  dir: string;
  /** File to start, relative to dir. */
  entry: string;
  /**
   * A built site's own start (builds/builder.ts): argv inside the sandbox at /app. Node keeps the
   * runtime's heap ceiling (added after the node binary); without it the kind's default runs entry.
   */
  command?: string[];
  /**
   * The version of the site's environment the caller saw (sites.env_version): a process of this
   * deployment started with an older one is restarted by ensure().
   */
  envVersion?: number;
  /**
   * Makes `dir` hold the deployment's files (extracted from the object store when this instance
   * lacks them): called by the runtime that starts a process, and only then, so instances that
   * proxy to the runner never fetch a dynamic site's files.
   */
  prepare?: () => Promise<unknown>;
  /** Reads the site's environment (its owner's variables, secrets opened) when a process starts. */
  env?: () => Promise<SiteEnvSnapshot>;
}

/**
 * Where the gateway sends a site's requests: a TCP address (Docker), a unix socket (sandbox), or
 * the instance that runs the site (SITE_RUNNER=lease: `peer` is the token that instance trusts).
 */
export type Upstream = { host: string; port: number; peer?: string } | { socketPath: string };

export interface EnsureOptions {
  /** For a request being proxied: an instance that does not run sites may just name the one that does. */
  forRequest?: boolean;
  /** The request came from another instance already: never send it on again. */
  forwarded?: boolean;
}

export interface RuntimeStats {
  cpuPercent: number;
  memPercent: number;
  status: 'running' | 'starting' | 'restarting' | 'stopped';
  /** Crashes since the last healthy minute, and why the site last stopped (a limit, an exit code). */
  restarts?: number;
  lastExit?: string;
}

export interface Runtime {
  readonly name: string;
  /**
   * Why this runtime cannot run a site of this kind here (no sandbox, PHP or Flask missing), in
   * words for the developer; undefined when it can. Checked before a deploy writes anything.
   */
  refusal(kind: RuntimeKind): string | undefined;
  /**
   * Starts the deployment's process (or finds it running) and resolves once it accepts
   * connections; rejects with its log tail when it cannot start. Other deployments of the
   * project keep running until retire(): a deploy switches traffic first, then retires.
   */
  ensure(spec: SiteSpec, opts?: EnsureOptions): Promise<Upstream>;
  /** The projects with a process (running, starting or restarting) on this instance. */
  projects(): { projectId: string; deploymentId: string; envVersion: number }[];
  /**
   * Whether the project has a process wherever its sites run: on this instance, or on the
   * instance that runs sites for all (SITE_RUNNER=lease), which projects() cannot see.
   */
  hasProcess(projectId: string): Promise<boolean>;
  /** Stops every process of the project except `keepDeploymentId`. */
  retire(projectId: string, keepDeploymentId?: string): Promise<void>;
  /** The running deployment of a project on this instance, if any. */
  running(projectId: string): { deploymentId: string; upstream: Upstream } | undefined;
  stats(projectId: string): Promise<RuntimeStats | undefined>;
  /** stdout and stderr of the deployment's process (tail). */
  logs(deploymentId: string): Promise<string>;
  /** Stops every site but can start them again (a runner that lost its lease). */
  stopAll?(): Promise<void>;
  close(): Promise<void>;
}

/** Starting failed: the message (with the log tail) is shown in the deployment's build log. */
export class RuntimeStartError extends Error {
  constructor(message: string, readonly log: string) {
    super(message);
    this.name = 'RuntimeStartError';
  }
}
