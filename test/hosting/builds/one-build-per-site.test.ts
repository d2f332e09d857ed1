// One build from source per site at a time, kept by the database (migration 0026's partial unique
// index): two uploads of the same site at the same instant both pass the service's check, and the
// second framework write is refused, so exactly one answers 202 and the other 409, with nothing of
// it kept (failed with the reason, its stored archive removed). Both paths that write the
// framework: an upload queued by a gateway (queueBuild) and one built where it landed.
import fs from 'node:fs';
import path from 'node:path';
import { buildTestApp, type TestApp } from '../../helpers/app';
import { createSiteProject, deploy, site, type SiteProject } from '../site-helpers';
import { makeZip } from '../zips';
import { probeSandbox } from '../../../server/src/modules/hosting/runtime/sandbox';
import { HostingRepository } from '../../../server/src/modules/hosting/hosting.repository';
import { siteKeyPrefix } from '../../../server/src/modules/hosting/deploy/site-files';

const RUNNING = 'A build of this site is already running: wait for it to finish (its log shows how far it is).';
const sandbox = probeSandbox();
if (!sandbox.ok) console.warn(`builds from source skipped: ${sandbox.problem}`);

const settings = (t: TestApp, p: SiteProject, body: object) => t.post(`/project/${p.id}/hosting/build-settings/set`, body, p.dev.token);
const archiveKept = (t: TestApp, p: SiteProject, id: string) => t.app.deps.objectStore.exists(siteKeyPrefix(p.id, id) + 'archive.zip');

/** Two uploads of the same site at once: their answers, sorted by status. */
async function twoAtOnce(t: TestApp, p: SiteProject, round: number) {
  const zip = (n: number) => makeZip([{ name: 'package.json', data: JSON.stringify({ name: `round-${round}-${n}` }) }]);
  const answers = await Promise.all([deploy(t, p, zip(1), 'Static'), deploy(t, p, zip(2), 'Static')]);
  return answers.sort((a, b) => a.statusCode - b.statusCode);
}

/** Rows of the project's deployments, newest first. */
async function deployments(t: TestApp, p: SiteProject) {
  return t.database.query<{ id: string; status: string; error: string | null; framework: string | null }>(
    'SELECT id, status, error, framework FROM site_deployments WHERE project_id = $1 ORDER BY created_at DESC, id',
    [p.id],
  );
}

/** The refused upload of a round: failed with the reason, and nothing of it stored. */
async function expectRefusedCleanly(t: TestApp, p: SiteProject, accepted: string, before: Set<string>) {
  const rows = (await deployments(t, p)).filter((r) => !before.has(r.id) && r.id !== accepted);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ status: 'failed', error: RUNNING });
  expect(await archiveKept(t, p, rows[0].id)).toBe(false);
}

describe('uploaded to a gateway (queued)', () => {
  let t: TestApp;
  let p: SiteProject;
  beforeAll(async () => {
    t = await buildTestApp({ SITE_RUNNER: 'gateway' });
    p = await createSiteProject(t);
    expect((await settings(t, p, { build_command: 'mkdir -p public && echo hi > public/index.html', output_directory: 'public' })).statusCode).toBe(200);
  }, 60_000);
  afterAll(() => t?.close(), 30_000);

  test('two uploads at once: one is queued (202), the other refused (409), every round', async () => {
    for (let round = 0; round < 5; round++) {
      const before = new Set((await deployments(t, p)).map((r) => r.id));
      const [first, second] = await twoAtOnce(t, p, round);
      expect([first.statusCode, second.statusCode]).toEqual([202, 409]);
      expect(second.json().message).toBe(RUNNING);
      const accepted = first.json().deployment.id as string;
      expect(await archiveKept(t, p, accepted)).toBe(true); // the queued build's source
      await expectRefusedCleanly(t, p, accepted, before);
      // Nobody builds here: the queued build is ended by hand before the next round.
      await t.database.query(`UPDATE site_deployments SET status = 'failed' WHERE id = $1`, [accepted]);
    }
  }, 60_000);
});

(sandbox.ok ? describe : describe.skip)('built where it was uploaded', () => {
  let t: TestApp;
  let p: SiteProject;
  beforeAll(async () => {
    t = await buildTestApp();
    p = await createSiteProject(t);
    // Long enough that the other upload of the round lands while it runs.
    expect((await settings(t, p, { build_command: 'sleep 2 && mkdir -p public && echo "<h1>one build</h1>" > public/index.html', output_directory: 'public' })).statusCode).toBe(200);
  }, 60_000);
  afterAll(() => t?.close(), 30_000);

  test('two uploads at once: one builds (202) and goes live, the other is refused (409), every round', async () => {
    for (let round = 0; round < 3; round++) {
      const before = new Set((await deployments(t, p)).map((r) => r.id));
      const [first, second] = await twoAtOnce(t, p, round);
      expect([first.statusCode, second.statusCode]).toEqual([202, 409]);
      expect(second.json().message).toBe(RUNNING);
      const accepted = first.json().deployment.id as string;
      await expectRefusedCleanly(t, p, accepted, before);
      // The accepted one builds to the end (the stream closes then) and is live.
      const stream = await t.app.inject({ method: 'GET', url: `/api/project/${p.id}/deployments/${accepted}/log-stream`, headers: { authorization: `Bearer ${p.dev.token}` } });
      expect(stream.payload).toContain('event: end\ndata: {"status":"live","error":null}');
      expect((await site(t, p, '/')).payload).toContain('one build');
    }
  }, 90_000);
});

describe('the database refuses a second build of a site', () => {
  let t: TestApp;
  let p: SiteProject;
  let other: SiteProject;
  let repo: HostingRepository;
  beforeAll(async () => {
    t = await buildTestApp();
    p = await createSiteProject(t);
    other = await createSiteProject(t);
    repo = new HostingRepository(t.database);
  }, 60_000);
  afterAll(() => t?.close(), 30_000);

  test('the second framework write of a site is refused, whichever way it is written', async () => {
    const a = await repo.createDeployment(p.id, 'Static', 'instance-a');
    const b = await repo.createDeployment(p.id, 'Static', 'instance-b');
    const elsewhere = await repo.createDeployment(other.id, 'Static', 'instance-b');
    expect(await repo.startSourceBuild(a.id, 'Vite')).toBe(true);
    expect(await repo.startSourceBuild(b.id, 'Vite')).toBe(false);
    expect(await repo.queueBuild(b.id, 'Vite', 'log')).toBe(false);
    // Another site builds meanwhile; an upload served as it came (no framework) is never held back.
    expect(await repo.startSourceBuild(elsewhere.id, 'Vite')).toBe(true);
    const plain = await repo.createDeployment(p.id, 'Static');
    await repo.finishBuild(plain.id, { root: '' });
    // Once the first build ended, the next may start.
    await repo.fail(a.id, 'done', '', new Date());
    expect(await repo.queueBuild(b.id, 'Vite', 'log')).toBe(true);
    const rows = await t.database.query<{ id: string; framework: string | null }>('SELECT id, framework FROM site_deployments WHERE id = ANY($1::uuid[])', [[b.id, plain.id]]);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.framework]))).toEqual({ [b.id]: 'Vite', [plain.id]: null });
  });

  test('the migration settles duplicates an older database holds, keeping the newest build', async () => {
    // The database as it was before 0026, with two builds of one site running.
    await t.database.query(`UPDATE site_deployments SET status = 'failed' WHERE status = 'building'`);
    await t.database.query('DROP INDEX site_deployments_one_build_key');
    await t.database.query('ALTER TABLE site_deployments DROP COLUMN build_started_at');
    const insert = (projectId: string, age: string) =>
      t.database.query<{ id: string }>(
        `INSERT INTO site_deployments (project_id, type, status, framework, builder, created_at) VALUES ($1, 'Static', 'building', 'Vite', 'x', now() - $2::interval) RETURNING id`,
        [projectId, age],
      );
    const [[older], [newer], [alone]] = [await insert(p.id, '2 minutes'), await insert(p.id, '1 minute'), await insert(other.id, '3 minutes')];
    await t.database.exec(fs.readFileSync(path.join(__dirname, '../../../migrations/0026_one_build_per_site.sql'), 'utf8'));
    const rows = await t.database.query<{ id: string; status: string; error: string | null; build_log: string }>('SELECT id, status, error, build_log FROM site_deployments WHERE id = ANY($1::uuid[])', [[older.id, newer.id, alone.id]]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(older.id)).toMatchObject({ status: 'failed', error: expect.stringMatching(/newer build of this site/) });
    expect(byId.get(older.id)!.build_log).toMatch(/Failed: Stopped: a newer build/);
    expect(byId.get(newer.id)).toMatchObject({ status: 'building', error: null });
    expect(byId.get(alone.id)).toMatchObject({ status: 'building', error: null });
    // The index holds from now on.
    const [next] = await insert(p.id, '0 minutes').catch((err: unknown) => [{ id: String((err as { code?: string }).code ?? err) }]);
    expect(next.id).toBe('23505');
  });
});
