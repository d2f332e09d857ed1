// Hosting's rules: a zip becomes an immutable deployment (judged, extracted, stored, checked) and
// goes live by one atomic switch; anything refused or failed leaves the live site as it was.
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { LookupCache } from '../../platform/lookup-cache';
import type { Clock } from '../../platform/clock';
import type { AccountEvents } from '../../platform/account-events';
import { AppError, Errors } from '../../platform/errors';
import type { ProjectRow } from '../projects';
import { type BuildLifecycle, type SiteFiles, deploymentKind, guessZipType, runtimeLayout, runtimeOf, staticLayout, type Layout, type ProjectType, loadRules, DEFAULT_ZIP_LIMITS, extractTo, planZip, ZipRefusedError, type ZipLimits, type ZipSource } from './deploy';
import type { HostingRepository, LiveSite } from './hosting.repository';
import type { DeploymentRow } from './hosting.tables';
import { RuntimeStartError, type Runtime, type SiteSpec, type SiteEnv, type SiteEnvInput } from './runtime';
import type { TrafficCounter } from './edge';
import { BuildLog, fileNames, type SourceBuilds, type BuildPlan, BuildFailedError } from './build';

/** A second build of a site while one runs (one build per site at a time). */
const BUILD_RUNNING = 'A build of this site is already running: wait for it to finish (its log shows how far it is).';

export interface HostingServiceDeps {
  repo: HostingRepository;
  files: SiteFiles;
  runtime: Runtime;
  traffic: TrafficCounter;
  clock: Clock;
  log: FastifyBaseLogger;
  zipLimits?: ZipLimits;
  /** How long the gateway trusts its view of which deployment is live (other instances' switches). */
  liveCacheMs?: number;
  /** Storage charged for deployments, heartbeats of builds, pruning (build-lifecycle.ts). */
  builds: BuildLifecycle;
  /** A failed deploy is told here (the project's errors panel, the owner's mail). */
  events?: AccountEvents;
  /** The site's own variables and secrets (site-env.ts). */
  env: SiteEnv;
  /**
   * Where live sites are kept between changes, dropped on every instance by the notices of
   * migrations/0022 (a switch answered here waits until every instance heard it). Without it, and
   * for subdomains that name no project, a short-lived local cache (liveCacheMs).
   */
  lookups?: Pick<LookupCache, 'get' | 'peek' | 'barrier'>;
  /** Builds from source (source-builds.ts): uploads that are source code are built before they go live. */
  sources?: SourceBuilds;
}

/** A deploy's answer: live (or failed) now, or a build from source under way (`started` says which). */
export interface DeployResult {
  deployment: DeploymentRow;
  started?: string;
}

/** The upload names something a build could start from (it may still be served as it came). */
function mayBuild(names: Set<string>): boolean {
  for (const n of names) if (/(^|\/)(package\.json|composer\.json|requirements\.txt)$/.test(n)) return true;
  return false;
}

export class HostingService {
  private readonly live = new Map<string, { at: number; site: LiveSite | undefined }>();
  /** Projects with a deploy or activation under way here: a process started before the switch is not stale. */
  private readonly switchingNow = new Map<string, number>();
  /** Bumped when a switch starts or ends: a reconcile pass that read the database before it is stale. */
  private switchEpoch = 0;

  constructor(private readonly d: HostingServiceDeps) {}

  /**
   * The gateway's fast path: the cached answer for a subdomain while it is fresh, else undefined
   * (then liveSite() asks the database). `{ site: undefined }` means "not a project".
   */
  cachedLiveSite(subdomain: string): { site: LiveSite | undefined } | undefined {
    const kept = this.d.lookups?.peek<LiveSite>(`site:${subdomain}`);
    if (kept) return { site: kept };
    const hit = this.live.get(subdomain);
    return hit && this.d.clock.now().getTime() - hit.at < (this.d.liveCacheMs ?? 2000) ? hit : undefined;
  }

  /** A switch made elsewhere in this module (instant-deploy.ts): in force everywhere before its answer. */
  forgetLive(subdomain: string): Promise<void> {
    return this.siteChanged({ subdomain });
  }

  /**
   * The site for a subdomain: kept until a notice says it changed (lookups), or from a
   * short-lived local cache without them. "No such project" is always the short-lived kind.
   */
  async liveSite(subdomain: string): Promise<LiveSite | undefined> {
    const hit = this.live.get(subdomain);
    const now = this.d.clock.now().getTime();
    if (hit && now - hit.at < (this.d.liveCacheMs ?? 2000)) return hit.site;
    const read = () => this.d.repo.liveBySubdomain(subdomain);
    const site = this.d.lookups ? await this.d.lookups.get(`site:${subdomain}`, read, (s) => [`site:${s.project.id}`, `project:${s.project.id}`]) : await read();
    if (site && this.d.lookups) return site;
    if (this.live.size > 10_000) this.live.clear();
    this.live.set(subdomain, { at: now, site });
    return site;
  }

  /** After a change of what a subdomain serves: in force here and on every instance before the answer. */
  private async siteChanged(project: Pick<ProjectRow, 'subdomain'>): Promise<void> {
    this.live.delete(project.subdomain);
    await this.d.lookups?.barrier();
  }

  // ---- [billing] builds own a heartbeat while they run; older deployments are pruned after ----
  async deploy(project: ProjectRow, type: string, zip: ZipSource): Promise<DeployResult> {
    // A dynamic site this host cannot run safely (no sandbox, no PHP, no Flask) is refused before
    // anything is written; static sites never need the runtime.
    const refusedKind = runtimeOf(type);
    const refused = refusedKind && this.d.runtime.refusal(refusedKind);
    if (refused) throw Errors.badRequest(refused);
    const row = await this.d.repo.createDeployment(project.id, type, this.d.builds.instanceId);
    const beat = this.d.builds.heartbeat(row.id);
    const leave = this.enterSwitch(project.id);
    let handedOver = false;
    const done = async () => {
      beat.stop();
      await this.d.builds.prune(project).catch((err) => this.d.log.warn({ err, projectId: project.id }, 'pruning old deployments failed'));
    };
    try {
      const result = await this.build(project, type, zip, row);
      if ('queued' in result) return { deployment: result.row, started: `Build queued: ${result.plan.framework} (${result.plan.reason}); an instance that runs builds takes it` };
      if (!('workspace' in result)) return { deployment: result };
      // Source code: the build goes on after the answer, keeping its heartbeat until it ends.
      handedOver = true;
      void this.buildFromSource(project, result.row, result.plan, result.workspace, result.log).finally(done);
      return { deployment: result.row, started: `Build started: ${result.plan.framework} (${result.plan.reason})` };
    } finally {
      leave();
      if (!handedOver) await done();
    }
  }

  /** The site type of an archive deployed with type "auto" (deploy/guess-type.ts). */
  async detectType(zip: ZipSource): Promise<ProjectType> {
    // A damaged archive is refused by the deploy itself, with its failed deployment and message.
    return guessZipType(zip, this.d.zipLimits ?? DEFAULT_ZIP_LIMITS).catch((err: unknown) => {
      if (err instanceof ZipRefusedError) return 'Static' as const;
      throw err;
    });
  }

  /** Refuses early (413) when the owner's storage is already full: before a deploy's upload is read. */
  async assertStorageRoom(project: ProjectRow): Promise<void> {
    await this.d.builds.assertRoom(project);
  }
  // ---- [/billing] ----

  private async build(
    project: ProjectRow,
    type: string,
    zip: ZipSource,
    row: DeploymentRow,
  ): Promise<DeploymentRow | { row: DeploymentRow; plan: BuildPlan; workspace: string; log: BuildLog } | { row: DeploymentRow; plan: BuildPlan; queued: true }> {
    const log = new BuildLog(this.d.clock, (text) => this.d.repo.appendBuildLog(row.id, text));
    let staged: string | undefined;
    let storing: Promise<void> | undefined;
    try {
      const size = Buffer.isBuffer(zip) ? zip.length : (await fsp.stat(zip)).size;
      log.add(`Received a ${size}-byte zip for a ${type} site (deployment ${row.id})`);
      const plan = await planZip(zip, this.d.zipLimits ?? DEFAULT_ZIP_LIMITS);
      const names = new Set(plan.files.map((f) => f.name));
      const kind = runtimeOf(type);
      let layout: Layout | undefined;
      // An upload without index.html may be source code to build: judged once it is extracted.
      let notServable: unknown;
      try {
        log.add(`Checked ${plan.files.length} files, ${plan.totalBytes} bytes uncompressed${plan.strippedWrapper ? ` (wrapper folder ${plan.strippedWrapper}/ removed)` : ''}`);
        if (plan.files.length === 0) throw new ZipRefusedError('The zip is empty.');
        // [billing] The archive and the extracted files count toward the owner's storage (413 past the plan's limit).
        await this.d.builds.reserve(project, row.id, size + plan.totalBytes);
        // Static types are judged on names alone, before a byte is written (unless they may be built).
        try {
          layout = kind ? { root: '' } : staticLayout(names);
        } catch (err) {
          if (!(this.d.sources && mayBuild(names))) throw err;
          notServable = err;
        }
        staged = await this.d.files.tempDir('deploy');
        // The archive is stored while it is extracted (a refused one is removed below).
        storing = this.d.files.storeArchive(project.id, row.id, zip);
        storing.catch(() => undefined); // awaited below; no unhandled rejection meanwhile
        // An upload in memory is written by a worker with synchronous calls, in order, as unzip
        // does (bench/hosting.ts: median deploy 1073 -> 720 ms against the threadpool version).
        await extractTo(plan, zip, staged);
      } finally {
        plan.close();
      }
      const source = this.d.sources && mayBuild(names) ? await this.d.sources.plan(project.id, type, names, staged) : null;
      if (source) {
        const decision = this.d.sources!.decide(source);
        if ('refuse' in decision) throw Errors.badRequest(decision.refuse);
        // The fast path; the database's one-build index settles two uploads at the same instant (below).
        if (await this.d.repo.sourceBuildRunning(project.id, row.id)) throw Errors.conflict(BUILD_RUNNING);
        await storing; // the source archive, replaced by the built one when the build succeeds
        if ('queue' in decision) {
          // Another instance builds it from the stored source (source-builds.ts startWorker).
          log.add('Queued for an instance that runs builds');
          if (!(await this.d.repo.queueBuild(row.id, source.framework, log.text))) throw Errors.conflict(BUILD_RUNNING);
          await fsp.rm(staged, { recursive: true, force: true });
          staged = undefined;
          storing = undefined;
          return { row: { ...row, framework: source.framework, builder: null }, plan: source, queued: true };
        }
        if (!(await this.d.repo.startSourceBuild(row.id, source.framework))) throw Errors.conflict(BUILD_RUNNING);
        await log.flush(); // while building, the log is only ever appended to (build-log.ts)
        const workspace = staged;
        staged = undefined;
        storing = undefined;
        return { row: { ...row, framework: source.framework }, plan: source, workspace, log };
      }
      if (notServable) throw notServable;
      // Static types have their layout from the names (above); runtime types from their files.
      if (kind) layout = await runtimeLayout(kind, names, (n) => fsp.readFile(path.join(staged!, n), 'utf8'));
      layout = layout!;
      log.add(`Extracted; serving ${layout.root ? `${layout.root}/` : 'the top folder'}${layout.entry ? `, starting ${layout.entry}` : ''}`);
      // Static sites: _redirects and _headers are judged now (a bad line fails the deploy) and stored with it.
      const rules = kind ? null : await loadRules(path.join(staged, layout.root));
      if (rules) log.add(`Rules: ${rules.redirects.length} redirects, ${rules.headers.length} header blocks`);
      await storing;
      await this.d.files.publish(row.id, staged);
      staged = undefined;
      log.add('Stored');
      await this.d.repo.finishBuild(row.id, { sizeBytes: plan.totalBytes, fileCount: plan.files.length, root: layout.root, entry: layout.entry ?? null, rules });
      await log.flush();
      const deployment = { ...row, root: layout.root, entry: layout.entry ?? null };
      if (kind) {
        log.add(`Starting the ${kind} process`);
        await this.d.runtime.ensure(this.specOf(project, deployment, await this.d.repo.envVersionOf(project.id)));
      }
      if (!(await this.d.repo.activate(project.id, row.id))) throw new Error('activation found no deployment');
      await this.siteChanged(project);
      // Traffic now goes to the new deployment: the previous process can go.
      await this.d.runtime.retire(project.id, kind ? row.id : undefined);
      log.add('Live');
      await this.d.repo.finishBuild(row.id, { buildLog: log.text });
      return (await this.d.repo.findDeployment(project.id, row.id))!;
    } catch (err) {
      if (staged) await fsp.rm(staged, { recursive: true, force: true });
      if (storing) {
        await storing.catch(() => undefined);
        await this.d.files.removeDeployment(project.id, row.id).catch(() => undefined);
      }
      const message = await this.failed(project, row, log, err);
      if (err instanceof AppError) throw err; // [billing] the storage quota's 413
      if (message) throw Errors.badRequest(message);
      throw err;
    }
  }

  /** Records a failed deployment (the live site untouched); the message when the developer may read it. */
  private async failed(project: ProjectRow, row: DeploymentRow, log: BuildLog, err: unknown): Promise<string | undefined> {
    const known = err instanceof ZipRefusedError || err instanceof RuntimeStartError || err instanceof AppError || err instanceof BuildFailedError;
    const message = known ? (err as Error).message : 'The deployment failed because of an internal error.';
    log.add(`Failed: ${message}`);
    if (err instanceof RuntimeStartError && err.log) log.add(`Process output:\n${err.log}`);
    if (!known) this.d.log.error({ err, deploymentId: row.id }, 'deployment failed');
    await log.flush();
    await this.d.repo.fail(row.id, message, log.text, this.d.clock.now());
    await this.d.events?.emit({ type: 'deploy_failed', accountId: project.ownerId, projectId: project.id, message: `A ${row.type} deployment failed: ${message}` });
    return known ? message : undefined;
  }

  /**
   * A build another instance queued (source-builds.ts startWorker claimed it for this one): its
   * stored source is extracted here and built as if it had been uploaded here.
   */
  async buildQueued(row: DeploymentRow, projectOf: (id: string) => Promise<ProjectRow | undefined>): Promise<void> {
    const beat = this.d.builds.heartbeat(row.id);
    const log = new BuildLog(this.d.clock, (text) => this.d.repo.appendBuildLog(row.id, text), row.buildLog);
    const project = await projectOf(row.projectId).catch(() => undefined);
    try {
      if (!project) throw new BuildFailedError('The project is gone.');
      log.add(`Taken by instance ${this.d.builds.instanceId}`);
      let workspace: string | undefined;
      let plan: BuildPlan | null = null;
      try {
        workspace = await this.d.files.extractStored(project.id, row.id);
        plan = await this.d.sources!.plan(project.id, row.type, await fileNames(workspace), workspace);
        if (!plan) throw new BuildFailedError('The upload has nothing to build any more (its build settings changed).');
      } catch (err) {
        if (workspace) await fsp.rm(workspace, { recursive: true, force: true });
        throw err;
      }
      await this.buildFromSource(project, row, plan, workspace, log);
    } catch (err) {
      await this.d.files.removeDeployment(row.projectId, row.id).catch(() => undefined);
      if (project) await this.failed(project, row, log, err).catch((e) => this.d.log.error({ err: e, deploymentId: row.id }, 'recording a failed build failed'));
      else await this.d.repo.fail(row.id, 'The project is gone.', log.text, this.d.clock.now());
    } finally {
      beat.stop();
      if (project) await this.d.builds.prune(project).catch((err) => this.d.log.warn({ err, projectId: project.id }, 'pruning old deployments failed'));
    }
  }

  /** The build after the upload's answer: built, stored, then live through the one switch; never throws. */
  private async buildFromSource(project: ProjectRow, row: DeploymentRow, plan: BuildPlan, workspace: string, log: BuildLog): Promise<void> {
    try {
      const built = await this.d.sources!.build(project, row, plan, workspace, log);
      const leave = this.enterSwitch(project.id);
      try {
        if (built.kind) {
          log.add(`Starting the ${built.kind} process`);
          await this.d.runtime.ensure(this.specOf(project, built.row, await this.d.repo.envVersionOf(project.id)));
        }
        if (!(await this.d.repo.activate(project.id, row.id))) throw new Error('activation found no deployment');
        await this.siteChanged(project);
        await this.d.runtime.retire(project.id, built.kind ? row.id : undefined);
      } finally {
        leave();
      }
      log.add('Live');
      await log.flush();
      await this.d.repo.finishBuild(row.id, { buildLog: log.text });
    } catch (err) {
      await this.d.files.removeDeployment(project.id, row.id).catch(() => undefined);
      await this.failed(project, row, log, err).catch((e) => this.d.log.error({ err: e, deploymentId: row.id }, 'recording a failed build failed'));
    } finally {
      await fsp.rm(workspace, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** Rollback (or forward): makes an earlier successful deployment live again. */
  async activate(project: ProjectRow, deploymentId: string): Promise<DeploymentRow> {
    const leave = this.enterSwitch(project.id);
    try {
      return await this.activateNow(project, deploymentId);
    } finally {
      leave();
    }
  }

  private enterSwitch(projectId: string): () => void {
    this.switchingNow.set(projectId, (this.switchingNow.get(projectId) ?? 0) + 1);
    this.switchEpoch++;
    return () => {
      this.switchEpoch++;
      const n = (this.switchingNow.get(projectId) ?? 1) - 1;
      if (n > 0) this.switchingNow.set(projectId, n);
      else this.switchingNow.delete(projectId);
    };
  }

  /** Whether a deploy or activation of the project is under way on this instance. */
  switching(projectId: string): boolean {
    return this.switchingNow.has(projectId);
  }

  private async activateNow(project: ProjectRow, deploymentId: string): Promise<DeploymentRow> {
    const row = await this.d.repo.findDeployment(project.id, deploymentId);
    if (!row) throw Errors.notFound('Deployment');
    if (row.status !== 'live') throw Errors.badRequest(row.status === 'failed' ? 'A failed deployment cannot be made live.' : 'This deployment is still building.');
    const kind = deploymentKind(row);
    if (kind) {
      // The runtime that starts it fetches its files (SiteSpec.prepare).
      try {
        await this.d.runtime.ensure(this.specOf(project, row, await this.d.repo.envVersionOf(project.id)));
      } catch (err) {
        if (err instanceof RuntimeStartError) throw Errors.badRequest(`${err.message}. The live site was not changed.`);
        throw err;
      }
    }
    if (!(await this.d.repo.activate(project.id, row.id))) throw Errors.notFound('Deployment');
    await this.siteChanged(project);
    await this.d.runtime.retire(project.id, kind ? row.id : undefined);
    return (await this.d.repo.findDeployment(project.id, row.id))!;
  }

  /** What the runtime starts; envVersion: the site's env_version as the caller saw it. */
  specOf(project: Pick<ProjectRow, 'id'>, d: Pick<DeploymentRow, 'id' | 'type' | 'root' | 'entry' | 'runtime' | 'command'>, envVersion: number): SiteSpec {
    return {
      projectId: project.id,
      deploymentId: d.id,
      kind: deploymentKind(d)!,
      dir: path.join(this.d.files.cacheDir(d.id), d.root),
      entry: d.entry ?? '',
      command: d.command ?? undefined,
      prepare: () => this.d.files.ensureLocal(project.id, d.id),
      envVersion,
      env: () => this.d.env.runtimeEnv(project.id),
    };
  }

  // ---- the site's environment, unpublish, delete ----------------------------------------------

  listEnv(project: ProjectRow) {
    return this.d.env.list(project.id);
  }

  async setEnv(project: ProjectRow, variables: SiteEnvInput[]) {
    const view = await this.d.env.set(project.id, variables);
    return { ...view, ...(await this.applyEnv(project)) };
  }

  async unsetEnv(project: ProjectRow, names: string[]) {
    const view = await this.d.env.unset(project.id, names);
    return { ...view, ...(await this.applyEnv(project)) };
  }

  /**
   * A changed environment reaches the running process: here at once (the answer waits for the
   * restart), on other instances at their next request for the site or their next reconcile().
   */
  private async applyEnv(project: ProjectRow): Promise<{ message: string; restarted: boolean }> {
    await this.siteChanged(project);
    const liveId = await this.d.repo.liveDeploymentId(project.id);
    const live = liveId ? await this.d.repo.findDeployment(project.id, liveId) : undefined;
    if (!live || !deploymentKind(live)) return { message: 'Environment saved; it applies to the next deployment of a Node, PHP or Flask site.', restarted: false };
    // Asked before ensure(), which restarts a running process or starts one, wherever sites run.
    const running = await this.d.runtime.hasProcess(project.id);
    try {
      await this.d.runtime.ensure(this.specOf(project, live, await this.d.repo.envVersionOf(project.id)));
    } catch (err) {
      if (!(err instanceof RuntimeStartError)) throw err;
      return { message: `Environment saved, but the site did not start again with it: ${err.message}. See its runtime log.`, restarted: true };
    }
    return { message: running ? 'Environment saved; the site was restarted with it.' : 'Environment saved; the site was started with it.', restarted: true };
  }

  /** The one source of a site's environment for its processes and (later) its builds. */
  siteEnv(projectId: string) {
    return this.d.env.runtimeEnv(projectId);
  }

  /** Nothing is served any more; deployments and environment stay (activate() publishes again). */
  async unpublish(project: ProjectRow): Promise<void> {
    await this.d.repo.unpublish(project.id);
    await this.siteChanged(project);
    await this.d.runtime.retire(project.id);
  }

  /** The site goes: its processes, deployments with their files, environment and figures. */
  async deleteSite(project: ProjectRow, confirm: string): Promise<void> {
    if (confirm.trim().toLowerCase() !== project.subdomain) throw Errors.badRequest(`Type the project's subdomain (${project.subdomain}) to confirm.`);
    const ids = await this.d.repo.deleteSite(project.id);
    if (!ids) throw Errors.conflict('A deployment is building; delete the site once it has finished.');
    await this.siteChanged(project);
    this.d.traffic.forget(project.id);
    await this.d.runtime.retire(project.id);
    await this.d.files.removeProject(project.id, ids);
  }

  /**
   * What this instance runs, against the database: processes of a deployment that is no longer
   * live (unpublished, deleted, switched on another instance) are stopped; those started with an
   * older environment are restarted. Requests do the same for their site at once; this catches
   * the sites nobody visits. Called periodically by the module.
   */
  async reconcile(): Promise<void> {
    const running = this.d.runtime.projects();
    if (running.length === 0) return;
    const epoch = this.switchEpoch;
    const states = await this.d.repo.siteStates([...new Set(running.map((r) => r.projectId))]);
    for (const r of running) {
      // A deploy or activation here started or ended since the states were read: they may be stale.
      if (this.switchEpoch !== epoch) return;
      if (this.switching(r.projectId)) continue;
      const state = states.get(r.projectId);
      if (!state || state.liveDeploymentId !== r.deploymentId) {
        await this.d.runtime.retire(r.projectId, state?.liveDeploymentId ?? undefined);
        continue;
      }
      if (state.envVersion > r.envVersion) {
        const d = await this.d.repo.findDeployment(r.projectId, r.deploymentId);
        if (d) await this.d.runtime.ensure(this.specOf({ id: r.projectId }, d, state.envVersion)).catch(() => undefined);
      }
    }
  }

  /** Project deletion: processes, unsaved counts, stored and cached files (rows cascade). */
  async removeProject(project: ProjectRow): Promise<void> {
    await this.d.runtime.retire(project.id);
    this.d.traffic.forget(project.id);
    this.live.delete(project.subdomain);
    const ids = (await this.d.repo.listDeployments(project.id, 100_000)).map((r) => r.id);
    await this.d.files.removeProject(project.id, ids);
  }
}
