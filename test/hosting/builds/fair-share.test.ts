// A fair share of build slots between accounts: one tenant with many sites never fills every slot
// while others wait behind it. The wait queue of an instance gives a free slot to the account with
// the fewest builds running (round-robin between equals), and an account at BUILD_PER_ACCOUNT
// waits (never refused, its log says why). The real SourceBuilds, with a builder that runs
// nothing and ends each build when the test says (the Builder is SourceBuilds' seam); queued
// builds are claimed from rows in the real database.
import { buildTestApp, type TestApp } from '../../helpers/app';
import { createSiteProject, type SiteProject } from '../site-helpers';
import { registerDeveloper } from '../../helpers/factories';
import { SourceBuilds } from '../../../server/src/modules/hosting/build/source-builds';
import { HostingRepository } from '../../../server/src/modules/hosting/hosting.repository';
import { BuildLog } from '../../../server/src/modules/hosting/build/build-log';
import { BuildFailedError, type BuildArgs } from '../../../server/src/modules/hosting/build/builder';
import type { BuildPlan } from '../../../server/src/modules/hosting/build/detect';
import type { ProjectRow } from '../../../server/src/modules/projects/projects.tables';
import type { DeploymentRow } from '../../../server/src/modules/hosting/hosting.tables';

let t: TestApp;
let repo: HostingRepository;
beforeAll(async () => {
  t = await buildTestApp();
  repo = new HostingRepository(t.database);
}, 60_000);
afterAll(() => t?.close(), 30_000);

/** A builder whose builds start (in `started`) and end only when end(id) is called. */
function heldBuilder() {
  const started: string[] = [];
  const ends = new Map<string, () => void>();
  return {
    started,
    end(id: string) {
      const end = ends.get(id);
      if (!end) throw new Error(`build ${id} is not running`);
      ends.delete(id);
      end();
    },
    builder: {
      refusal: () => undefined,
      build: (a: BuildArgs) =>
        new Promise<never>((_, reject) => {
          started.push(a.deploymentId);
          ends.set(a.deploymentId, () => reject(new BuildFailedError('ended by the test')));
        }),
    },
  };
}

function sourceBuilds(builder: ReturnType<typeof heldBuilder>['builder'], concurrency: number, perAccount: number) {
  return new SourceBuilds({
    repo, builder, concurrency, perAccount, instanceId: 'this-instance', log: t.app.log,
    env: { runtimeEnv: async () => ({ vars: {} }) } as never,
    // A build here never succeeds, so nothing is stored: these are never reached.
    files: {} as never, lifecycle: {} as never, settings: {} as never,
  });
}

const plan = { framework: 'Vite' } as BuildPlan;

/** Waits until the condition holds (the builds start on their own turns). */
async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!ok()) throw new Error(`never happened: ${what}`);
}

interface Upload {
  id: string;
  log: BuildLog;
  done: Promise<unknown>;
}

/** One upload's build of `project` (its own deployment row), started on `sb` as the service does. */
async function upload(sb: SourceBuilds, project: SiteProject, owner: string): Promise<Upload> {
  const row = await repo.createDeployment(project.id, 'Static', 'this-instance');
  const log = new BuildLog(t.app.deps.clock);
  const done = sb.build({ id: project.id, ownerId: owner } as ProjectRow, row as DeploymentRow, plan, '/nonexistent', log).catch((err: unknown) => err);
  return { id: row.id, log, done };
}

describe('the wait queue of an instance', () => {
  test('with one slot, another account waits behind one build of the busy account, not behind all of them', async () => {
    const a = await createSiteProject(t);
    const b = await createSiteProject(t);
    const h = heldBuilder();
    const sb = sourceBuilds(h.builder, 1, 2);
    const a1 = await upload(sb, a, a.dev.id);
    await until('a1 runs', () => h.started.length === 1);
    const a2 = await upload(sb, a, a.dev.id);
    const a3 = await upload(sb, a, a.dev.id);
    const b1 = await upload(sb, b, b.dev.id);
    expect(a2.log.text).toMatch(/Waiting for a free builder on this server/);
    expect(b1.log.text).toMatch(/Waiting for a free builder on this server/);

    h.end(a1.id);
    await until('a second build runs', () => h.started.length === 2);
    h.end(h.started[1]);
    await until('a third build runs', () => h.started.length === 3);
    h.end(h.started[2]);
    await until('a fourth build runs', () => h.started.length === 4);
    h.end(h.started[3]);
    expect(h.started).toEqual([a1.id, b1.id, a2.id, a3.id]);
    for (const u of [a1, a2, a3, b1]) expect(await u.done).toBeInstanceOf(BuildFailedError);
    // A build that took its slot counts as running for other instances (build_started_at).
    const [{ n }] = await t.database.query<{ n: number }>('SELECT count(*)::int AS n FROM site_deployments WHERE id = ANY($1::uuid[]) AND build_started_at IS NOT NULL', [[a1.id, a2.id, a3.id, b1.id]]);
    expect(Number(n)).toBe(4);
  });

  test('an account at its cap waits, says why, and leaves the free slots to others', async () => {
    const a = await createSiteProject(t);
    const b = await createSiteProject(t);
    const h = heldBuilder();
    const sb = sourceBuilds(h.builder, 3, 2);
    const a1 = await upload(sb, a, a.dev.id);
    const a2 = await upload(sb, a, a.dev.id);
    await until('a1 and a2 run', () => h.started.length === 2);
    const a3 = await upload(sb, a, a.dev.id);
    expect(a3.log.text).toMatch(/Waiting: your account already has 2 builds running/);
    // A slot is free, but a3's account is at its cap: b1 takes it.
    const b1 = await upload(sb, b, b.dev.id);
    await until('b1 runs', () => h.started.includes(b1.id));
    expect(h.started).not.toContain(a3.id);
    // One of a's builds ends: a3 starts, never refused.
    h.end(a1.id);
    await until('a3 runs', () => h.started.includes(a3.id));
    // (a1 and a2 took their slots together: which reached the builder first does not matter.)
    expect([[...h.started.slice(0, 2)].sort(), h.started.slice(2)]).toEqual([[a1.id, a2.id].sort(), [b1.id, a3.id]]);
    for (const id of [a2.id, b1.id, a3.id]) h.end(id);
    for (const u of [a1, a2, a3, b1]) expect(await u.done).toBeInstanceOf(BuildFailedError);
  });
});

describe('claiming builds queued in the database', () => {
  let a1: SiteProject;
  let a2: SiteProject;
  let b1: SiteProject;
  let c1: SiteProject;
  let devA: Awaited<ReturnType<typeof registerDeveloper>>;
  beforeAll(async () => {
    devA = await registerDeveloper(t);
    a1 = await createSiteProject(t, devA);
    a2 = await createSiteProject(t, devA);
    b1 = await createSiteProject(t);
    c1 = await createSiteProject(t);
  }, 60_000);
  beforeEach(() => t.database.query(`UPDATE site_deployments SET status = 'failed' WHERE status = 'building'`));

  /** A build from source in the table: queued (no builder) or running on an instance; `age` orders them. */
  async function row(p: SiteProject, age: string, on?: string): Promise<string> {
    const [r] = await t.database.query<{ id: string }>(
      `INSERT INTO site_deployments (project_id, type, status, framework, builder, build_started_at, created_at)
       VALUES ($1, 'Static', 'building', 'Vite', $2::text, CASE WHEN $2::text IS NULL THEN NULL ELSE now() END, now() - $3::interval) RETURNING id`,
      [p.id, on ?? null, age],
    );
    return r.id;
  }

  test('the account with the fewest builds running goes first, then the oldest', async () => {
    await row(a1, '10 minutes', 'other-instance'); // a's build running elsewhere
    const aQueued = await row(a2, '5 minutes');
    const bQueued = await row(b1, '1 minute');
    // a's queued build is older, but a already has one running: b's goes first.
    expect((await repo.claimQueuedBuild('this-instance', 2))?.id).toBe(bQueued);
    // Now one each: the older goes.
    expect((await repo.claimQueuedBuild('this-instance', 2))?.id).toBe(aQueued);
    expect(await repo.claimQueuedBuild('this-instance', 2)).toBeUndefined();
  });

  test('a build waiting for a slot on its instance does not count as running', async () => {
    // a's upload waits on another instance (claimed, no slot yet): a is not held back for it.
    await t.database.query(`UPDATE site_deployments SET build_started_at = NULL WHERE id = $1`, [await row(a1, '10 minutes', 'other-instance')]);
    const aQueued = await row(a2, '5 minutes');
    await row(b1, '1 minute');
    expect((await repo.claimQueuedBuild('this-instance', 1))?.id).toBe(aQueued);
  });

  test("an instance counts an account's builds running on the others, not its own nor those waiting for a slot", async () => {
    await row(a1, '10 minutes', 'other-instance');
    await t.database.query(`UPDATE site_deployments SET build_started_at = NULL WHERE id = $1`, [await row(a2, '5 minutes', 'other-instance')]);
    await row(b1, '1 minute', 'this-instance');
    expect(await repo.runningElsewhere([devA.id, b1.dev.id, c1.dev.id], 'this-instance')).toEqual(new Map([[devA.id, 1]]));
    expect(await repo.runningElsewhere([devA.id, b1.dev.id], 'other-instance')).toEqual(new Map([[b1.dev.id, 1]]));
  });

  test('an account at its cap is not claimed; its queued build says why, once, and is taken when one ends', async () => {
    const running = await row(a1, '10 minutes', 'other-instance');
    const aQueued = await row(a2, '5 minutes');
    const cQueued = await row(c1, '1 minute');
    expect((await repo.claimQueuedBuild('this-instance', 1))?.id).toBe(cQueued);
    expect(await repo.claimQueuedBuild('this-instance', 1)).toBeUndefined();
    await repo.noteAccountsAtCap(1);
    await repo.noteAccountsAtCap(1);
    const [{ build_log, builder }] = await t.database.query<{ build_log: string; builder: string | null }>('SELECT build_log, builder FROM site_deployments WHERE id = $1', [aQueued]);
    expect(builder).toBeNull();
    expect(build_log.match(/Waiting: your account already has 1 builds running/g)).toHaveLength(1);
    // Not refused: it is claimed once the running one ended.
    await repo.fail(running, 'done', '', new Date());
    expect((await repo.claimQueuedBuild('this-instance', 1))?.id).toBe(aQueued);
  });
});
