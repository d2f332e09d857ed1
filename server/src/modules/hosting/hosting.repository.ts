// Hosting's queries. The live switch is one statement (see activate) so that readers see either
// the old deployment or the new one, never a mix, on PGlite and PostgreSQL alike.
import { and, desc, eq, gte, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { isUuid } from '../../platform/ids';
import { isUniqueViolation } from '../../platform/pg-errors';
import type { LookupCache } from '../../platform/lookup-cache';
import { projects, type ProjectRow } from '../projects/projects.tables';
import { siteBuildSettings, siteDeployments, siteEnv, siteErrors, sites, siteTraffic, type BuildSettingsRow, type DeploymentRow, type SiteEnvRow } from './hosting.tables';

/** How long a build queued for another instance may wait before it fails (QUEUE_EXPIRED). */
export const QUEUE_WAIT_MS = 30 * 60_000;
export const QUEUE_EXPIRED = 'no instance that runs builds took it within 30 minutes (builds run where SITE_RUNNER is local or lease and the sandbox works)';

export interface LiveSite {
  project: ProjectRow;
  deployment?: DeploymentRow;
  /** sites.env_version: a process started with an older environment is restarted. */
  envVersion: number;
}

export interface BuildLogPart {
  status: DeploymentRow['status'];
  error: string | null;
  /** The whole log's length in characters. */
  length: number;
  text: string;
}

export interface TrafficDelta {
  projectId: string;
  hour: Date;
  requests: number;
  bytesIn: number;
  bytesOut: number;
}

export interface ErrorDelta {
  projectId: string;
  status: number;
  path: string;
  count: number;
  lastSeen: Date;
}

export class HostingRepository {
  /**
   * lookups: a deployment's bytes given back (failed, pruned) change the owner's storage in use,
   * which listings keep in memory (storage.service.ts): the write waits until every instance heard it.
   */
  constructor(
    private readonly database: Database,
    private readonly lookups?: Pick<LookupCache, 'barrier'>,
  ) {}

  private get db() {
    return this.database.db;
  }

  /** A new 'building' row, owned by `builder` (an instance id) with a fresh heartbeat. */
  async createDeployment(projectId: string, type: string, builder?: string): Promise<DeploymentRow> {
    const [row] = await this.db
      .insert(siteDeployments)
      .values({ projectId, type, status: 'building', builder: builder ?? null, heartbeatAt: sql`now()` })
      .returning();
    return row;
  }

  // ---- builds in flight, storage charged, pruning (see build-lifecycle.ts) -------------------

  /** The builder is still at it. Database time, so instances' clocks need not agree. */
  async heartbeat(id: string): Promise<void> {
    await this.db.update(siteDeployments).set({ heartbeatAt: sql`now()` }).where(and(eq(siteDeployments.id, id), eq(siteDeployments.status, 'building')));
  }

  /** Records a building deployment's bytes, inside the storage quota's transaction; undefined if it is no longer building. */
  async reserveBytes(tx: Database['db'], id: string, bytes: number): Promise<string | undefined> {
    const [row] = await tx
      .update(siteDeployments)
      .set({ storedBytes: bytes })
      .where(and(eq(siteDeployments.id, id), eq(siteDeployments.status, 'building')))
      .returning({ id: siteDeployments.id });
    return row?.id;
  }

  /**
   * Marks dead builds failed with `message`, releasing their bytes: those of `ownBuilder` (this
   * instance, restarting: it builds nothing yet; null for none) and any whose builder has not
   * touched heartbeat_at for `leaseMs`. Returns them so their files can be removed.
   */
  async interruptDead(message: string, ownBuilder: string | null, leaseMs: number): Promise<{ id: string; project_id: string }[]> {
    const failed = await this.database.query<{ id: string; project_id: string }>(
      `UPDATE site_deployments
          SET status = 'failed', error = $1, stored_bytes = 0, finished_at = now(),
              build_log = build_log || '[' || to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '] Failed: ' || $1 || E'\n'
        WHERE status = 'building' AND builder IS NOT NULL
          AND (builder = $2 OR coalesce(heartbeat_at, created_at) < now() - make_interval(secs => $3::double precision))
        RETURNING id, project_id`,
      [message, ownBuilder, leaseMs / 1000],
    );
    // Builds queued for an instance that runs builds (source-builds.ts) wait longer, and fail
    // with what would help: no such instance took them.
    failed.push(
      ...(await this.database.query<{ id: string; project_id: string }>(
        `UPDATE site_deployments
            SET status = 'failed', error = $1, stored_bytes = 0, finished_at = now(),
                build_log = build_log || '[' || to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '] Failed: ' || $1 || E'\n'
          WHERE status = 'building' AND builder IS NULL AND coalesce(heartbeat_at, created_at) < now() - make_interval(secs => $2::double precision)
          RETURNING id, project_id`,
        [QUEUE_EXPIRED, QUEUE_WAIT_MS / 1000],
      )),
    );
    if (failed.length > 0) await this.lookups?.barrier();
    return failed;
  }

  /**
   * Deletes the project's deployments beyond its newest `keep` built ones (bytes released with the
   * row) and beyond its newest `keep` failed ones (their logs), never the live one and never one
   * still building; returns the deleted ids. Failed attempts never push out rollback targets. The
   * candidates are locked first, so a rollback racing this either made one live before (then it
   * is kept: the DELETE's own snapshot sees the new live pointer) or finds it gone (404), and the
   * live pointer can never be left dangling.
   */
  async pruneDeployments(projectId: string, keep: number): Promise<string[]> {
    const pruned = await this.db.transaction(async (tx) => {
      const older = await tx
        .select({ id: siteDeployments.id })
        .from(siteDeployments)
        .where(
          sql`${siteDeployments.id} IN (SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY status ORDER BY created_at DESC, id DESC) AS rank
                 FROM site_deployments WHERE project_id = ${projectId} AND status <> 'building') ranked WHERE rank > ${keep})`,
        )
        .for('update');
      if (older.length === 0) return [];
      const deleted = await tx
        .delete(siteDeployments)
        .where(
          and(
            inArray(siteDeployments.id, older.map((r) => r.id)),
            ne(siteDeployments.status, 'building'),
            sql`NOT EXISTS (SELECT 1 FROM sites s WHERE s.live_deployment_id = ${siteDeployments.id})`,
          ),
        )
        .returning({ id: siteDeployments.id });
      return deleted.map((r) => r.id);
    });
    if (pruned.length > 0) await this.lookups?.barrier();
    return pruned;
  }

  /** Status of each given deployment id that still exists (for the orphan sweeps). */
  async statusesOf(ids: string[]): Promise<Map<string, DeploymentRow['status']>> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return new Map();
    const rows = await this.db.select({ id: siteDeployments.id, status: siteDeployments.status }).from(siteDeployments).where(inArray(siteDeployments.id, valid));
    return new Map(rows.map((r) => [r.id, r.status]));
  }

  async finishBuild(id: string, values: Partial<Pick<DeploymentRow, 'sizeBytes' | 'fileCount' | 'root' | 'entry' | 'rules' | 'buildLog' | 'runtime' | 'command' | 'framework'>>): Promise<void> {
    await this.db.update(siteDeployments).set(values).where(eq(siteDeployments.id, id));
  }

  // ---- builds from source (source-builds.ts) ---------------------------------------------------

  /** Appends to the log of a build in progress; never touches one that has finished (its final log is written then). */
  async appendBuildLog(id: string, text: string): Promise<void> {
    await this.db
      .update(siteDeployments)
      .set({ buildLog: sql`${siteDeployments.buildLog} || ${text}` })
      .where(and(eq(siteDeployments.id, id), eq(siteDeployments.status, 'building')));
  }

  /**
   * Hands a build from source to whichever instance runs builds (its source archive is stored).
   * False when another build of the site is running: the one-build index refused the framework.
   */
  async queueBuild(id: string, framework: string, buildLog: string): Promise<boolean> {
    return oneBuild(this.db.update(siteDeployments).set({ builder: null, framework, buildLog, heartbeatAt: sql`now()` }).where(and(eq(siteDeployments.id, id), eq(siteDeployments.status, 'building'))));
  }

  /** Marks a deployment as a build from source, built here; false when another build of the site is running. */
  async startSourceBuild(id: string, framework: string): Promise<boolean> {
    return oneBuild(this.db.update(siteDeployments).set({ framework }).where(and(eq(siteDeployments.id, id), eq(siteDeployments.status, 'building'))));
  }

  /**
   * A queued build, now this instance's (one instance gets each); undefined when none may start.
   * Fair between accounts: the queued build of the owner with the fewest builds running across
   * all instances goes first (then the oldest), and none of an owner already at `perAccount` is
   * taken (it waits, never refused). Claimed, it holds a slot: it is running from now on. Two instances claiming at the same instant may each see the
   * same count and let an owner pass its cap by one; the next claims settle it.
   */
  async claimQueuedBuild(builder: string, perAccount = Number.MAX_SAFE_INTEGER): Promise<DeploymentRow | undefined> {
    const [row] = await this.database.query<{ id: string }>(
      `UPDATE site_deployments SET builder = $1, heartbeat_at = now(), build_started_at = now()
        WHERE id = (SELECT d.id FROM site_deployments d
                      JOIN projects p ON p.id = d.project_id
                      LEFT JOIN (${RUNNING_BY_OWNER}) running ON running.owner_id = p.owner_id
                     WHERE d.status = 'building' AND d.builder IS NULL AND d.framework IS NOT NULL
                       AND coalesce(running.n, 0) < $2
                     ORDER BY coalesce(running.n, 0), d.created_at, d.id
                     LIMIT 1 FOR UPDATE OF d SKIP LOCKED)
        RETURNING id`,
      [builder, perAccount],
    );
    if (!row) return undefined;
    const [claimed] = await this.db.select().from(siteDeployments).where(eq(siteDeployments.id, row.id)).limit(1);
    return claimed;
  }

  /**
   * Says once, in the log of each queued build whose owner is at `perAccount`, why it is not
   * taken yet (the log only grows: readers' offsets stay valid).
   */
  async noteAccountsAtCap(perAccount: number): Promise<void> {
    await this.database.query(
      `UPDATE site_deployments d
          SET build_log = d.build_log || '[' || to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '] ${ACCOUNT_WAIT}' || running.n || ' builds running' || E'\n'
         FROM projects p, (${RUNNING_BY_OWNER}) running
        WHERE p.id = d.project_id AND running.owner_id = p.owner_id AND running.n >= $1
          AND d.status = 'building' AND d.builder IS NULL AND d.framework IS NOT NULL
          AND position('${ACCOUNT_WAIT}' in d.build_log) = 0`,
      [perAccount],
    );
  }

  /** A build from source took its slot on this instance: it counts as running for its account. */
  async markBuildStarted(id: string): Promise<void> {
    await this.db.update(siteDeployments).set({ buildStartedAt: sql`now()` }).where(and(eq(siteDeployments.id, id), eq(siteDeployments.status, 'building')));
  }

  /** Builds from source of these owners running on instances other than `builder` (this one), by owner. */
  async runningElsewhere(ownerIds: string[], builder: string): Promise<Map<string, number>> {
    const ids = [...new Set(ownerIds)].filter(isUuid);
    if (ids.length === 0) return new Map();
    const rows = await this.database.query<{ owner_id: string; n: number }>(
      `SELECT p.owner_id, count(*)::int AS n FROM site_deployments c JOIN projects p ON p.id = c.project_id
        WHERE c.status = 'building' AND c.build_started_at IS NOT NULL AND c.builder <> $1 AND c.framework IS NOT NULL
          AND p.owner_id = ANY($2::uuid[])
        GROUP BY p.owner_id`,
      [builder, ids],
    );
    return new Map(rows.map((r) => [r.owner_id, Number(r.n)]));
  }

  /** Another build from source of the project still running (one per site at a time). */
  async sourceBuildRunning(projectId: string, exceptId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: siteDeployments.id })
      .from(siteDeployments)
      .where(and(eq(siteDeployments.projectId, projectId), eq(siteDeployments.status, 'building'), isNotNull(siteDeployments.framework), ne(siteDeployments.id, exceptId)))
      .limit(1);
    return !!row;
  }

  async buildSettingsOf(projectId: string): Promise<BuildSettingsRow | undefined> {
    const [row] = await this.db.select().from(siteBuildSettings).where(eq(siteBuildSettings.projectId, projectId)).limit(1);
    return row;
  }

  async saveBuildSettings(projectId: string, values: Omit<BuildSettingsRow, 'projectId' | 'updatedAt'>): Promise<BuildSettingsRow> {
    const [row] = await this.db
      .insert(siteBuildSettings)
      .values({ projectId, ...values })
      .onConflictDoUpdate({ target: siteBuildSettings.projectId, set: { ...values, updatedAt: sql`now()` } })
      .returning();
    return row;
  }

  /** A failed deployment holds no bytes: what it reserved is released here. */
  async fail(id: string, error: string, buildLog: string, now: Date): Promise<void> {
    await this.db.update(siteDeployments).set({ status: 'failed', error, buildLog, finishedAt: now, storedBytes: 0 }).where(eq(siteDeployments.id, id));
    await this.lookups?.barrier();
  }

  async findDeployment(projectId: string, id: string): Promise<DeploymentRow | undefined> {
    if (!isUuid(id)) return undefined;
    const [row] = await this.db
      .select()
      .from(siteDeployments)
      .where(and(eq(siteDeployments.id, id), eq(siteDeployments.projectId, projectId)))
      .limit(1);
    return row;
  }

  /**
   * A deployment's status and its build log from character `from` (to `upTo` when given), with
   * the log's whole length: followers read only what is new (build-log-stream.ts). Offsets are
   * SQL characters (code points) on both sides, never JS string lengths (UTF-16 units).
   */
  async buildLogPart(projectId: string, id: string, from: number, upTo?: number): Promise<BuildLogPart | undefined> {
    if (!isUuid(id)) return undefined;
    const log = siteDeployments.buildLog;
    const [row] = await this.db
      .select({
        status: siteDeployments.status,
        error: siteDeployments.error,
        length: sql<number>`length(${log})::int`,
        text: upTo === undefined ? sql<string>`substr(${log}, ${from + 1}::int)` : sql<string>`substr(${log}, ${from + 1}::int, ${Math.max(0, upTo - from)}::int)`,
      })
      .from(siteDeployments)
      .where(and(eq(siteDeployments.id, id), eq(siteDeployments.projectId, projectId)))
      .limit(1);
    return row;
  }

  listDeployments(projectId: string, limit = 100): Promise<DeploymentRow[]> {
    return this.db.select().from(siteDeployments).where(eq(siteDeployments.projectId, projectId)).orderBy(desc(siteDeployments.createdAt)).limit(limit);
  }

  async liveDeploymentId(projectId: string): Promise<string | null> {
    const [row] = await this.db.select({ id: sites.liveDeploymentId }).from(sites).where(eq(sites.projectId, projectId)).limit(1);
    return row?.id ?? null;
  }

  /**
   * The atomic switch: marks the deployment live (unless it failed) and points the site at it in
   * ONE statement. Returns false when the deployment is missing, failed or another project's.
   */
  async activate(projectId: string, deploymentId: string): Promise<boolean> {
    const rows = await this.database.query<{ project_id: string }>(
      `WITH d AS (
         UPDATE site_deployments SET status = 'live', finished_at = COALESCE(finished_at, now())
          WHERE id = $1 AND project_id = $2 AND status <> 'failed'
          RETURNING id, project_id)
       INSERT INTO sites (project_id, live_deployment_id, updated_at)
       SELECT project_id, id, now() FROM d
       ON CONFLICT (project_id) DO UPDATE SET live_deployment_id = EXCLUDED.live_deployment_id, updated_at = now()
       RETURNING project_id`,
      [deploymentId, projectId],
    );
    return rows.length === 1;
  }

  /** What the gateway needs for a Host: the project and its live deployment. */
  async liveBySubdomain(subdomain: string): Promise<LiveSite | undefined> {
    const [row] = await this.db
      .select({ project: projects, deployment: siteDeployments, envVersion: sites.envVersion })
      .from(projects)
      .leftJoin(sites, eq(sites.projectId, projects.id))
      .leftJoin(siteDeployments, eq(siteDeployments.id, sites.liveDeploymentId))
      .where(eq(projects.subdomain, subdomain))
      .limit(1);
    return row && { project: row.project, deployment: row.deployment ?? undefined, envVersion: row.envVersion ?? 0 };
  }

  // ---- the site's environment (site-env.ts), unpublish and delete ------------------------------

  async envVersionOf(projectId: string): Promise<number> {
    const [row] = await this.db.select({ v: sites.envVersion }).from(sites).where(eq(sites.projectId, projectId)).limit(1);
    return row?.v ?? 0;
  }

  envOf(projectId: string): Promise<SiteEnvRow[]> {
    return this.db.select().from(siteEnv).where(eq(siteEnv.projectId, projectId));
  }

  /** The variables and the version they are of, read together (one snapshot). */
  async envWithVersion(projectId: string): Promise<{ version: number; rows: SiteEnvRow[] }> {
    return this.db.transaction(async (tx) => {
      const [site] = await tx.select({ v: sites.envVersion }).from(sites).where(eq(sites.projectId, projectId)).limit(1);
      const rows = await tx.select().from(siteEnv).where(eq(siteEnv.projectId, projectId));
      return { version: site?.v ?? 0, rows };
    });
  }

  /**
   * One change of the environment: the site's row is created or locked and its env_version
   * bumped first, so concurrent changes run one after the other; `decide` sees the current rows
   * and may throw (nothing is written then). Returns the rows after the change.
   */
  async changeEnv(projectId: string, decide: (current: SiteEnvRow[]) => Promise<{ upsert: { name: string; value: string; secret: boolean }[]; remove: string[] }>): Promise<SiteEnvRow[]> {
    return this.db.transaction(async (tx) => {
      await tx
        .insert(sites)
        .values({ projectId, envVersion: 1 })
        .onConflictDoUpdate({ target: sites.projectId, set: { envVersion: sql`${sites.envVersion} + 1` } });
      const current = await tx.select().from(siteEnv).where(eq(siteEnv.projectId, projectId));
      const { upsert, remove } = await decide(current);
      if (remove.length) await tx.delete(siteEnv).where(and(eq(siteEnv.projectId, projectId), inArray(siteEnv.name, remove)));
      if (upsert.length) {
        await tx
          .insert(siteEnv)
          .values(upsert.map((v) => ({ projectId, ...v, updatedAt: sql`now()` })))
          .onConflictDoUpdate({ target: [siteEnv.projectId, siteEnv.name], set: { value: sql`excluded.value`, secret: sql`excluded.secret`, updatedAt: sql`now()` } });
      }
      return tx.select().from(siteEnv).where(eq(siteEnv.projectId, projectId));
    });
  }

  /** For instances reconciling what they run: each project's live deployment and env version. */
  async siteStates(projectIds: string[]): Promise<Map<string, { liveDeploymentId: string | null; envVersion: number }>> {
    const valid = projectIds.filter(isUuid);
    if (valid.length === 0) return new Map();
    const rows = await this.db.select({ projectId: sites.projectId, live: sites.liveDeploymentId, v: sites.envVersion }).from(sites).where(inArray(sites.projectId, valid));
    return new Map(rows.map((r) => [r.projectId, { liveDeploymentId: r.live, envVersion: r.v }]));
  }

  /** No deployment is served any more; returns whether one was. */
  async unpublish(projectId: string): Promise<boolean> {
    const rows = await this.db
      .update(sites)
      .set({ liveDeploymentId: null, updatedAt: sql`now()` })
      .where(and(eq(sites.projectId, projectId), sql`${sites.liveDeploymentId} IS NOT NULL`))
      .returning({ projectId: sites.projectId });
    return rows.length === 1;
  }

  /**
   * Removes the site (deployments, the live pointer, environment, traffic figures) unless a
   * deployment is building; returns the removed deployment ids, or undefined when one is building.
   */
  async deleteSite(projectId: string): Promise<string[] | undefined> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.select({ id: siteDeployments.id, status: siteDeployments.status }).from(siteDeployments).where(eq(siteDeployments.projectId, projectId)).for('update');
      if (rows.some((r) => r.status === 'building')) return undefined;
      await tx.delete(sites).where(eq(sites.projectId, projectId));
      await tx.delete(siteDeployments).where(eq(siteDeployments.projectId, projectId));
      await tx.delete(siteEnv).where(eq(siteEnv.projectId, projectId));
      await tx.delete(siteTraffic).where(eq(siteTraffic.projectId, projectId));
      await tx.delete(siteErrors).where(eq(siteErrors.projectId, projectId));
      return rows.map((r) => r.id);
    });
  }

  /** The owner's projects with their live deployment (or latest attempt) for the sites list. */
  async sitesOf(owned: ProjectRow[]): Promise<{ project: ProjectRow; live?: DeploymentRow; latest?: DeploymentRow }[]> {
    if (owned.length === 0) return [];
    const ids = owned.map((p) => p.id);
    const liveRows = await this.db
      .select({ projectId: sites.projectId, deployment: siteDeployments })
      .from(sites)
      .innerJoin(siteDeployments, eq(siteDeployments.id, sites.liveDeploymentId))
      .where(inArray(sites.projectId, ids));
    const latestRows = await this.db
      .selectDistinctOn([siteDeployments.projectId])
      .from(siteDeployments)
      .where(inArray(siteDeployments.projectId, ids))
      .orderBy(siteDeployments.projectId, desc(siteDeployments.createdAt));
    const live = new Map(liveRows.map((r) => [r.projectId, r.deployment]));
    const latest = new Map(latestRows.map((r) => [r.projectId, r]));
    return owned.map((project) => ({ project, live: live.get(project.id), latest: latest.get(project.id) }));
  }

  /** Adds batched gateway counts (one upsert per table). */
  async addTraffic(traffic: TrafficDelta[], errors: ErrorDelta[]): Promise<void> {
    if (traffic.length) {
      await this.db
        .insert(siteTraffic)
        .values(traffic)
        .onConflictDoUpdate({
          target: [siteTraffic.projectId, siteTraffic.hour],
          set: {
            requests: sql`${siteTraffic.requests} + excluded.requests`,
            bytesIn: sql`${siteTraffic.bytesIn} + excluded.bytes_in`,
            bytesOut: sql`${siteTraffic.bytesOut} + excluded.bytes_out`,
          },
        });
    }
    if (errors.length) {
      await this.db
        .insert(siteErrors)
        .values(errors)
        .onConflictDoUpdate({
          target: [siteErrors.projectId, siteErrors.status, siteErrors.path],
          set: { count: sql`${siteErrors.count} + excluded.count`, lastSeen: sql`greatest(${siteErrors.lastSeen}, excluded.last_seen)` },
        });
    }
  }

  trafficSince(projectId: string, since: Date) {
    return this.db.select().from(siteTraffic).where(and(eq(siteTraffic.projectId, projectId), gte(siteTraffic.hour, since))).orderBy(siteTraffic.hour);
  }

  async totals(projectId: string): Promise<{ bytesIn: number; bytesOut: number; requests: number }> {
    const [row] = await this.database.query<{ i: string | null; o: string | null; r: string | null }>(
      `SELECT sum(bytes_in) AS i, sum(bytes_out) AS o, sum(requests) AS r FROM site_traffic WHERE project_id = $1`,
      [projectId],
    );
    return { bytesIn: Number(row?.i ?? 0), bytesOut: Number(row?.o ?? 0), requests: Number(row?.r ?? 0) };
  }

  errorsOf(projectId: string, limit = 20) {
    return this.db.select().from(siteErrors).where(eq(siteErrors.projectId, projectId)).orderBy(desc(siteErrors.lastSeen)).limit(limit);
  }
}

/**
 * Builds from source running (holding a slot on some instance), by owner account. Not those
 * waiting for a slot on their instance: two instances would hold each other's back.
 */
const RUNNING_BY_OWNER = `SELECT cp.owner_id, count(*)::int AS n FROM site_deployments c JOIN projects cp ON cp.id = c.project_id
                            WHERE c.status = 'building' AND c.build_started_at IS NOT NULL AND c.framework IS NOT NULL GROUP BY cp.owner_id`;
/** What a build's log says while its account is at BUILD_PER_ACCOUNT (source-builds.ts says it too). */
export const ACCOUNT_WAIT = 'Waiting: your account already has ';

/**
 * A write that makes a deployment a running build from source: the partial unique index
 * site_deployments_one_build_key (migration 0026) refuses a second one per site, atomically,
 * whatever the instances' timing. False when it did.
 */
async function oneBuild(write: PromiseLike<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}
