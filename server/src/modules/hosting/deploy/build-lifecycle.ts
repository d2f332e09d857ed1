// What keeps deployments honest about the bytes they hold and about builds that died:
//  - reserve(): a deploy's archive plus extracted files are charged to the owner's storage quota
//    through the storage module's one mechanism (StorageQuota.charge: a locked check-then-write),
//    recorded as site_deployments.stored_bytes; a failed deploy's row gives them back (fail()).
//  - prune(): each project keeps its newest N built deployments (HOSTING_KEEP_DEPLOYMENTS, 10)
//    and its newest N failed ones (their logs; they hold no bytes); older ones lose their row
//    (their bytes with it), archive object and cached files; never the live one (the rollback
//    target), never one still building. Failed attempts never push out rollback targets.
//  - builds that died with their instance are marked failed ("interrupted by a restart") and
//    their files, temp folders and partial archives removed, leaving the live site as it was.
//
// The rule for "died", with several instances sharing one database: a build belongs to the
// instance that wrote its `builder` id, and that instance touches `heartbeat_at` every
// heartbeatMs while it builds. A build is dead when
//   (a) its builder is this instance, seen at this instance's start (a starting instance builds
//       nothing yet, so whatever it was building died with its previous process), or
//   (b) its heartbeat is older than the lease (leaseMs, 60 s by default), whoever built it: the
//       instance crashed and did not come back, or lost the database for that long.
// A build by another live instance keeps a fresh heartbeat and is never touched. The instance id
// lives in DATA_DIR/hosting/instance-id: one DATA_DIR belongs to one running instance (it also
// holds PGlite's data and this instance's temp folders and site cache), so restarting with the
// same DATA_DIR is the same instance. The periodic check (every leaseMs / 2) applies (b) only.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { isUuid } from '../../../platform/ids';
import type { ObjectStore } from '../../../platform/object-store/object-store';
import type { StorageQuota } from '../../storage';
import type { ProjectRow } from '../../projects';
import type { HostingRepository } from '../hosting.repository';
import { siteKeyPrefix, type SiteFiles } from './site-files';

export const INTERRUPTED = 'interrupted by a restart';
export const DEFAULT_KEEP_DEPLOYMENTS = 10;
export const DEFAULT_BUILD_LEASE_MS = 60_000;

export interface BuildLifecycleDeps {
  repo: HostingRepository;
  files: SiteFiles;
  store: ObjectStore;
  quota: StorageQuota;
  log: FastifyBaseLogger;
  /** This instance's id (instanceIdOf(hostingDir)). */
  instanceId: string;
  /** Deployments kept per project. */
  keep: number;
  leaseMs?: number;
  heartbeatMs?: number;
  /** A build found dead and failed (the project's errors panel and its owner hear of it). */
  onInterrupted?: (projectId: string, deploymentId: string) => Promise<void>;
}

/** The id of the instance that owns this hosting folder, created on first start. */
export function instanceIdOf(hostingDir: string): string {
  const file = path.join(hostingDir, 'instance-id');
  try {
    const id = fs.readFileSync(file, 'utf8').trim();
    if (id) return id;
  } catch {
    /* first start */
  }
  fs.mkdirSync(hostingDir, { recursive: true });
  const id = crypto.randomUUID();
  fs.writeFileSync(file, id + '\n', { mode: 0o600 });
  return id;
}

export class BuildLifecycle {
  private timer?: NodeJS.Timeout;

  constructor(private readonly d: BuildLifecycleDeps) {}

  get instanceId(): string {
    return this.d.instanceId;
  }

  private get leaseMs(): number {
    return this.d.leaseMs ?? DEFAULT_BUILD_LEASE_MS;
  }

  /** Touches the build's heartbeat until stop() (every heartbeatMs, a sixth of the lease by default). */
  heartbeat(deploymentId: string): { stop(): void } {
    const every = this.d.heartbeatMs ?? Math.max(1000, Math.floor(this.leaseMs / 6));
    const timer = setInterval(() => {
      this.d.repo.heartbeat(deploymentId).catch((err) => this.d.log.warn({ err, deploymentId }, 'build heartbeat failed'));
    }, every);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }

  /**
   * Charges `bytes` (the archive and the extracted files) to the project's owner. Throws the
   * storage quota's 413 when the plan's limit would be passed; nothing is charged then.
   */
  async reserve(project: Pick<ProjectRow, 'ownerId'>, deploymentId: string, bytes: number): Promise<void> {
    const id = await this.d.quota.charge(project.ownerId, bytes, (tx) => this.d.repo.reserveBytes(tx, deploymentId, bytes), 'this deployment (its archive and extracted files)');
    if (!id) throw new Error(`deployment ${deploymentId} is no longer building (${INTERRUPTED}?)`);
  }

  /** 413 when the owner's storage is already full (checked before an upload is read). */
  async assertRoom(project: Pick<ProjectRow, 'ownerId'>): Promise<void> {
    const usage = await this.d.quota.usage(project.ownerId);
    if (usage.quotaBytes !== undefined && usage.usedBytes >= usage.quotaBytes) throw this.d.quota.exceeded(usage);
  }

  /** Keeps the newest N deployments of the project; removes the files of the others. */
  async prune(project: Pick<ProjectRow, 'id'>): Promise<string[]> {
    const ids = await this.d.repo.pruneDeployments(project.id, Math.max(1, this.d.keep));
    for (const id of ids) await this.d.files.removeDeployment(project.id, id);
    return ids;
  }

  /**
   * Marks dead builds failed (rule at the top of this file) and removes their files. At start
   * also this instance's own builds, every temp folder under hosting/tmp, and stored archives
   * and cached files that no live deployment owns.
   */
  async recover(atStart: boolean): Promise<{ interrupted: string[] }> {
    const dead = await this.d.repo.interruptDead(INTERRUPTED, atStart ? this.d.instanceId : null, this.leaseMs);
    for (const r of dead) {
      this.d.log.warn({ deploymentId: r.id, projectId: r.project_id }, `deployment ${INTERRUPTED}`);
      await this.d.files.removeDeployment(r.project_id, r.id);
      await this.d.onInterrupted?.(r.project_id, r.id).catch((err) => this.d.log.warn({ err, deploymentId: r.id }, 'hosting: telling of an interrupted build failed'));
    }
    if (atStart) {
      await this.sweepTemp();
      await this.sweepStoredOrphans();
    }
    await this.sweepCacheOrphans();
    return { interrupted: dead.map((r) => r.id) };
  }

  /** Runs recover(true) now, then recover(false) every leaseMs / 2 until stop(). */
  async start(): Promise<void> {
    try {
      await this.recover(true);
    } catch (err) {
      this.d.log.error({ err }, 'hosting: start-up recovery failed');
    }
    this.timer = setInterval(() => {
      this.recover(false).catch((err) => this.d.log.warn({ err }, 'hosting: recovery sweep failed'));
    }, Math.max(1000, Math.floor(this.leaseMs / 2)));
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** hosting/tmp/{deploy,upload,fill}-*: only a running deploy uses them, and none runs at start. */
  private async sweepTemp(): Promise<void> {
    const root = this.d.files.tmpRoot;
    for (const name of await fsp.readdir(root).catch(() => [] as string[])) {
      await fsp.rm(path.join(root, name), { recursive: true, force: true });
    }
  }

  /**
   * Stored archives (sites/<project>/<deployment>/…) whose deployment failed or no longer exists:
   * left by a crash between a row's change and its files' removal. A deployment being built
   * elsewhere has its row ('building') before its first byte is stored, so it is never taken.
   */
  private async sweepStoredOrphans(): Promise<void> {
    const prefixes = new Map<string, string>();
    for await (const { key } of this.d.store.list('sites/')) {
      const [, projectId, deploymentId] = key.split('/');
      // sites/<project>/blobs/… are the project's shared files (instant redeploys), not a deployment.
      if (projectId && deploymentId && isUuid(deploymentId)) prefixes.set(deploymentId, projectId);
    }
    const ids = [...prefixes.keys()];
    for (let i = 0; i < ids.length; i += 500) {
      const batch = ids.slice(i, i + 500);
      const statuses = await this.d.repo.statusesOf(batch);
      for (const id of batch) {
        const status = statuses.get(id);
        if (status === 'live' || status === 'building') continue;
        await this.d.store.deletePrefix(siteKeyPrefix(prefixes.get(id)!, id));
      }
    }
  }

  /** This instance's cached copies of deployments that failed or were pruned (on any instance). */
  private async sweepCacheOrphans(): Promise<void> {
    const root = this.d.files.cacheRoot;
    const names = (await fsp.readdir(root).catch(() => [] as string[])).filter(isUuid);
    for (let i = 0; i < names.length; i += 500) {
      const batch = names.slice(i, i + 500);
      const statuses = await this.d.repo.statusesOf(batch);
      for (const id of batch) {
        const status = statuses.get(id);
        if (status === 'live' || status === 'building') continue;
        await fsp.rm(path.join(root, id), { recursive: true, force: true });
      }
    }
  }
}
