// Builds from source, after an upload was judged and extracted (hosting.service.ts deploy()):
//   detect (builds/detect.ts) → a free build slot on this instance → install and build in the
//   site's sandbox within the build limits (builds/builder.ts) → what was built is stored as the
//   deployment's archive, so every instance serves or runs the same bytes → the service's one
//   switch makes it live.
// The upload's request answers 202 once the build is under way; the log grows in the database
// while it runs (streamDeploymentLog follows it from any instance). A failed build, a limit hit
// or a restart leaves the live site as it was (the deployment fails with the reason; a restart
// is caught by build-lifecycle.ts's heartbeat rule).
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { ProjectRow } from '../../projects';
import { type BuildLifecycle, type SiteFiles, staticLayout, type RuntimeKind, loadRules, type SiteRules } from '../deploy';
import type { BuildLog } from './build-log';
import type { BuildSettingsService } from './build-settings';
import { BuildFailedError, dropLinks, type Builder, type BuildOutcome } from './builder';
import { detectBuild, type BuildPlan } from './detect';
import { regularFiles, writeArchive } from './output-archive';
import { ACCOUNT_WAIT, type HostingRepository } from '../hosting.repository';
import type { DeploymentRow } from '../hosting.tables';
import type { SiteEnv } from '../runtime';

export interface SourceBuildsDeps {
  repo: HostingRepository;
  files: SiteFiles;
  lifecycle: BuildLifecycle;
  /** What runs a build (builds/builder.ts); tests give their own. */
  builder: Pick<Builder, 'build' | 'refusal'>;
  settings: BuildSettingsService;
  env: SiteEnv;
  log: FastifyBaseLogger;
  /** Builds run at once on this instance (BUILD_CONCURRENCY); the others wait their turn. */
  concurrency: number;
  /** Builds of one account run at once across the platform (BUILD_PER_ACCOUNT); its others wait. */
  perAccount: number;
  /** Why this platform never builds (its sites run elsewhere, e.g. in Docker); checked before the builder's own reasons. */
  refuseWith?: string;
  /**
   * Several instances (SITE_RUNNER lease or gateway): a gateway runs no tenant code, so the builds
   * uploaded to it are queued in the database for one that runs builds; `mayBuild` says whether
   * this one takes queued builds. Otherwise an instance builds, or refuses with why.
   */
  cluster?: { mayBuild: boolean };
  /** This instance's id (build-lifecycle.ts): what it writes as a claimed build's builder. */
  instanceId: string;
}

/** What the service's switch needs to make a built deployment live. */
export interface Built {
  kind?: RuntimeKind;
  row: DeploymentRow;
}

/** An upload's build waiting here for a slot, by arrival. */
interface Waiter {
  owner: string;
  go: () => void;
}

export class SourceBuilds {
  /** Slots taken on this instance: builds running, and claimed ones on their way to build(). */
  private running = 0;
  /** Builds running here by owner account (fair share: the next slot goes to whom has fewest). */
  private readonly runningBy = new Map<string, number>();
  private readonly waiting: Waiter[] = [];
  /** When each account with builds here last got a slot (a counter, not a clock): ties go round-robin. */
  private readonly served = new Map<string, number>();
  private turns = 0;
  /** Several instances: the waiting owners' builds running on the others (refreshed as the worker polls). */
  private elsewhere = new Map<string, number>();
  private readonly aborts = new Set<AbortController>();

  constructor(private readonly d: SourceBuildsDeps) {}

  /** Why builds (of this plan) cannot run on this host, for the developer; undefined when they can. */
  refusal(plan?: BuildPlan): string | undefined {
    return this.d.refuseWith ?? this.d.builder.refusal(plan);
  }

  /**
   * What to do with a build here: run it, queue it for another instance, or refuse it (one
   * instance that cannot build: the developer reads why at once).
   */
  decide(plan: BuildPlan): { build: true } | { queue: true } | { refuse: string } {
    // A gateway runs no tenant code: its builds go to the others. Any other instance may become
    // the one that runs sites, so one that cannot build says why at once (no build waits for
    // an instance that may not exist).
    if (this.d.cluster && !this.d.cluster.mayBuild) return { queue: true };
    const why = this.refusal(plan);
    return why ? { refuse: why } : { build: true };
  }

  private timer?: NodeJS.Timeout;
  private claiming = false;
  /** Claimed builds holding a slot that build() has not taken over yet. */
  private readonly held = new Set<string>();

  /**
   * Takes builds other instances queued, while this one has a free build slot: `take` runs one
   * (claimed: this instance is its builder from now on, heartbeat and all).
   */
  startWorker(take: (row: DeploymentRow) => Promise<void>, everyMs = 2000): void {
    if (!this.d.cluster?.mayBuild || this.refusal()) return;
    const poll = async () => {
      if (this.claiming) return;
      this.claiming = true;
      try {
        // Uploads waiting here whose account's builds elsewhere ended may start now.
        await this.refreshElsewhere();
        this.pump();
        // A slot is held before a build is claimed, and handed to it (build(…, held)). Uploads
        // waiting here go first, but not those of an account at its cap: they leave the slot to others.
        while (this.running + this.startable() < this.d.concurrency) {
          this.running++;
          const row = await this.d.repo.claimQueuedBuild(this.d.instanceId, this.d.perAccount).catch((err: unknown) => {
            this.release();
            throw err;
          });
          if (!row) {
            this.release();
            // Queued builds left for their account's cap say so in their log.
            await this.d.repo.noteAccountsAtCap(this.d.perAccount);
            break;
          }
          this.d.log.info({ deploymentId: row.id, projectId: row.projectId }, 'hosting: took a queued build');
          this.held.add(row.id);
          void take(row)
            .catch((err) => this.d.log.error({ err, deploymentId: row.id }, 'hosting: a queued build failed unexpectedly'))
            .finally(() => {
              if (this.held.delete(row.id)) this.release(); // it never reached build()
            });
        }
      } catch (err) {
        this.d.log.warn({ err }, 'hosting: checking for queued builds failed');
      } finally {
        this.claiming = false;
      }
    };
    this.timer = setInterval(() => void poll(), everyMs);
    this.timer.unref();
  }

  stopWorker(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** The build an extracted upload needs, or null when it is served (or run) as it came. */
  async plan(projectId: string, type: string, names: Set<string>, staged: string): Promise<BuildPlan | null> {
    return detectBuild(type, names, (n) => fsp.readFile(path.join(staged, n), 'utf8'), await this.d.settings.forBuild(projectId));
  }

  /**
   * Builds `workspace` (the extracted upload, now owned by this build) and stores the result as
   * the deployment's files; the caller's golive() switches traffic. Rejects with the reason the
   * developer reads; the caller fails the deployment with it.
   */
  async build(project: ProjectRow, row: DeploymentRow, plan: BuildPlan, workspace: string, log: BuildLog): Promise<Built> {
    const abort = new AbortController();
    this.aborts.add(abort);
    const owner = project.ownerId;
    try {
      // A build claimed from the queue comes with its slot; an upload's waits for one.
      if (this.held.delete(row.id)) {
        this.count(owner, 1);
        this.served.set(owner, ++this.turns);
      } else {
        await this.slot(owner, log, abort.signal);
        // Running now: other instances count it against the account's cap (a claimed one already is).
        await this.d.repo.markBuildStarted(row.id).catch((err: unknown) => this.d.log.warn({ err, deploymentId: row.id }, 'hosting: recording a started build failed'));
      }
      try {
        const env = await this.d.env.runtimeEnv(project.id);
        const outcome = await this.d.builder.build({ projectId: project.id, deploymentId: row.id, workspace, plan, env: env.vars, onLog: (t) => log.raw(t), signal: abort.signal });
        return await this.store(project, row, plan, outcome, log);
      } finally {
        this.release(owner);
      }
    } finally {
      this.aborts.delete(abort);
    }
  }

  /** Stops every build of this instance (shutdown): each fails, its live site untouched. */
  abortAll(): void {
    this.stopWorker();
    for (const a of this.aborts) a.abort();
  }

  /**
   * Waits for a slot: the build starts when one is free and it is its turn (pump()), never
   * refused. The log says why it waits: its account at its cap, or every slot taken.
   */
  private async slot(owner: string, log: BuildLog, signal: AbortSignal): Promise<void> {
    let waiter!: Waiter;
    const started = new Promise<void>((resolve, reject) => {
      const stop = () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new BuildFailedError('The build was stopped before it started: the server is shutting down.'));
      };
      waiter = {
        owner,
        go: () => {
          signal.removeEventListener('abort', stop);
          resolve();
        },
      };
      signal.addEventListener('abort', stop, { once: true });
    });
    // Stopped while the counts below are read: rejected before it is awaited, never unhandled.
    started.catch(() => undefined);
    this.waiting.push(waiter);
    if (this.d.cluster) await this.refreshElsewhere();
    this.pump();
    if (this.waiting.includes(waiter)) {
      const n = this.accountRunning(owner);
      log.add(n >= this.d.perAccount ? `${ACCOUNT_WAIT}${n} builds running` : 'Waiting for a free builder on this server');
    }
    await started;
  }

  /**
   * Starts waiting builds while slots are free: each time the one whose account has the fewest
   * builds running here; between equals, the account served longest ago (so one slot alternates
   * between accounts instead of draining one account's queue first), then arrival. Accounts at
   * their cap (across the platform) are skipped. Synchronous, so two frees never hand out one
   * slot twice.
   */
  private pump(): void {
    while (this.running < this.d.concurrency) {
      let next: Waiter | undefined;
      for (const w of this.waiting) {
        if (this.accountRunning(w.owner) >= this.d.perAccount) continue;
        if (!next || this.before(w.owner, next.owner)) next = w;
      }
      if (!next) break;
      this.waiting.splice(this.waiting.indexOf(next), 1);
      this.running++;
      this.count(next.owner, 1);
      this.served.set(next.owner, ++this.turns);
      next.go();
    }
    // Only accounts with builds here or waiting need their turn remembered.
    for (const owner of this.served.keys()) if (!this.runningBy.has(owner) && !this.waiting.some((w) => w.owner === owner)) this.served.delete(owner);
  }

  /** Whether `a`'s waiting build goes before `b`'s (an earlier arrival wins when neither does). */
  private before(a: string, b: string): boolean {
    if (a === b) return false;
    const diff = this.localOf(a) - this.localOf(b);
    if (diff !== 0) return diff < 0;
    return (this.served.get(a) ?? 0) < (this.served.get(b) ?? 0);
  }

  /** Waiting builds that could take a slot now (their account below its cap). */
  private startable(): number {
    return this.waiting.filter((w) => this.accountRunning(w.owner) < this.d.perAccount).length;
  }

  private localOf(owner: string): number {
    return this.runningBy.get(owner) ?? 0;
  }

  /** The account's builds running across the platform: here, and on other instances (as last read). */
  private accountRunning(owner: string): number {
    return this.localOf(owner) + (this.elsewhere.get(owner) ?? 0);
  }

  private count(owner: string, by: number): void {
    const n = this.localOf(owner) + by;
    if (n > 0) this.runningBy.set(owner, n);
    else this.runningBy.delete(owner);
  }

  /** Several instances: what the others are building for the waiting accounts (not what waits there). */
  private async refreshElsewhere(): Promise<void> {
    if (!this.d.cluster || this.waiting.length === 0) return;
    try {
      this.elsewhere = await this.d.repo.runningElsewhere(this.waiting.map((w) => w.owner), this.d.instanceId);
    } catch (err) {
      this.d.log.warn({ err }, 'hosting: counting builds on other instances failed');
    }
  }

  /** A slot freed; `owner`'s when a build held it (a claimed build that never reached build() has none). */
  private release(owner?: string): void {
    this.running--;
    if (owner) this.count(owner, -1);
    this.pump();
  }

  /** The built files as the deployment's archive and this instance's cached copy. */
  private async store(project: ProjectRow, row: DeploymentRow, plan: BuildPlan, outcome: BuildOutcome, log: BuildLog): Promise<Built> {
    let served = outcome.dir;
    let root = '';
    let rules: SiteRules | null = null;
    if (outcome.kind === 'static') {
      // The output alone becomes the deployment (dependencies and sources stay behind).
      const names = await fileNames(outcome.dir);
      if (names.size === 0) throw new BuildFailedError(`The build wrote no files in its output folder${plan.output.kind === 'static' && plan.output.dir ? ` (${plan.output.dir})` : ''}: set the output directory in the build settings.`);
      root = layoutOf(names);
      rules = await loadRules(path.join(outcome.dir, root));
      if (rules) log.add(`Rules: ${rules.redirects.length} redirects, ${rules.headers.length} header blocks`);
      served = await this.d.files.tempDir('built');
      await fsp.rm(served, { recursive: true });
      await fsp.rename(outcome.dir, served);
    }
    const archiveDir = await this.d.files.tempDir('archive');
    try {
      const archive = path.join(archiveDir, 'archive.zip');
      const written = await writeArchive(served, archive);
      // This instance's copy holds what the archive holds (other instances extract it): no links.
      if (written.skipped) await dropLinks(served);
      if (written.skipped) log.add(`Left out ${written.skipped} symbolic link${written.skipped === 1 ? '' : 's'} or special file${written.skipped === 1 ? '' : 's'}: deployments hold regular files only`);
      const archiveBytes = (await fsp.stat(archive)).size;
      // [billing] What is kept is what counts: the built archive and its files.
      await this.d.lifecycle.reserve(project, row.id, archiveBytes + written.bytes);
      await this.d.files.storeArchive(project.id, row.id, archive);
      await this.d.files.publish(row.id, served);
      log.add(`Stored ${written.files} files (${(written.bytes / 1048576).toFixed(1)} MiB)`);
      const runtime = outcome.kind === 'static' ? 'static' : outcome.kind;
      const entry = outcome.kind === 'static' ? null : outcome.entry;
      const command = outcome.kind === 'static' ? null : (outcome.command ?? null);
      await this.d.repo.finishBuild(row.id, { sizeBytes: written.bytes, fileCount: written.files, root, rules, runtime, entry, command, framework: plan.framework });
      return { kind: outcome.kind === 'static' ? undefined : outcome.kind, row: { ...row, root, entry, command, runtime, rules, framework: plan.framework } };
    } finally {
      await fsp.rm(archiveDir, { recursive: true, force: true });
    }
  }
}

/** Where index.html is in a build's output: at its top, or in one build folder below it. */
function layoutOf(names: Set<string>): string {
  try {
    return staticLayout(names).root;
  } catch (err) {
    throw new BuildFailedError(`The build's output has no index.html to serve: ${(err as Error).message} Set the output directory in the build settings.`);
  }
}

/** Relative paths of the regular files under dir (links are never followed). */
export async function fileNames(dir: string): Promise<Set<string>> {
  return new Set((await regularFiles(dir)).files.map((f) => f.rel));
}
