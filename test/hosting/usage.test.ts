// Hosting bytes are on the bill (else deployments would be free storage). A deployment's archive and extracted files
// count toward the owner's storage (shown apart from files), a deploy past the plan's limit is
// refused with 413 and keeps nothing, only the newest N deployments are kept (never the live one,
// never one being built), and builds of dead instances are failed without touching live ones.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { buildTestApp, type TestApp } from '../helpers/app';
import { upload } from '../storage/helpers';
import { createSiteProject, deploy, site, type SiteProject } from './site-helpers';
import { makeZip } from './zips';

jest.setTimeout(60_000);

const GiB = 1024 ** 3;
const KEEP = 3;
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ HOSTING_KEEP_DEPLOYMENTS: String(KEEP) });
});
afterAll(() => t.close());

/** A static site: index.html with `title` plus `files` incompressible files of `size` bytes. */
function siteZip(title: string, files = 20, size = 4096): { zip: Buffer; extracted: number } {
  const items = [{ name: 'index.html', data: `<!doctype html><title>${title}</title>` }];
  for (let i = 0; i < files; i++) items.push({ name: `assets/f${i}.bin`, data: crypto.randomBytes(size) as unknown as string });
  const extracted = items.reduce((n, it) => n + Buffer.byteLength(it.data as string | Buffer), 0);
  return { zip: makeZip(items.map((it) => ({ ...it, deflate: false }))), extracted };
}

async function usage(p: SiteProject) {
  const res = await t.post(`/project/${p.id}/object-storage/files`, { page: 1 }, p.dev.token);
  expect(res.statusCode).toBe(200);
  return res.json() as { usage_bytes: number; files_bytes: number; hosting_bytes: number; quota_bytes?: number };
}

async function history(p: SiteProject) {
  return (await t.post(`/project/${p.id}/deployments`, {}, p.dev.token)).json() as {
    deployments: { id: string; status: string; live: boolean; error: string | null }[];
    live_deployment_id: string | null;
  };
}

/** What a project's deployments really hold: stored archives plus this instance's extracted copies. */
async function bytesOnDisk(p: SiteProject): Promise<{ total: number; deployments: Set<string> }> {
  let total = 0;
  const deployments = new Set<string>();
  for await (const o of t.app.deps.objectStore.list(`sites/${p.id}/`)) {
    total += o.size;
    deployments.add(o.key.split('/')[2]);
  }
  const cache = path.join(t.dataDir, 'hosting', 'cache');
  for (const id of deployments) total += dirBytes(path.join(cache, id));
  return { total, deployments };
}

function dirBytes(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .reduce((n, e) => n + fs.statSync(path.join(e.parentPath, e.name)).size, 0);
}

async function title(p: SiteProject): Promise<string> {
  const res = await site(t, p, '/');
  return /<title>(.*?)<\/title>/.exec(res.body)?.[1] ?? `(${res.statusCode})`;
}

/** Pretends the account already stores `bytes` of files (a row without bytes; only its size matters). */
async function occupy(projectId: string, bytes: number) {
  await t.database.query(
    `INSERT INTO storage_objects (object_id, project_id, storage_key, name, object_type, object_size, etag, share_segment)
     VALUES ($1, $2, 'projects/none', 'filler', 'application/octet-stream', $3, 'x', 'x')`,
    [crypto.randomUUID(), projectId, bytes],
  );
  await t.app.deps.lookups.barrier(); // a write from outside the platform: wait until it is heard
}

test('HOSTING_KEEP_DEPLOYMENTS: 10 by default, at least 1', () => {
  expect(loadConfig({ DATA_DIR: t.dataDir, JWT_SECRET: 'x' }).hostingKeepDeployments).toBe(10);
  expect(loadConfig({ DATA_DIR: t.dataDir, JWT_SECRET: 'x', HOSTING_KEEP_DEPLOYMENTS: '25' }).hostingKeepDeployments).toBe(25);
  expect(() => loadConfig({ DATA_DIR: t.dataDir, JWT_SECRET: 'x', HOSTING_KEEP_DEPLOYMENTS: '0' })).toThrow('HOSTING_KEEP_DEPLOYMENTS must be at least 1, got "0"');
  expect(() => loadConfig({ DATA_DIR: t.dataDir, JWT_SECRET: 'x', HOSTING_KEEP_DEPLOYMENTS: 'ten' })).toThrow(/HOSTING_KEEP_DEPLOYMENTS must be a non-negative integer/);
});

describe('a deployment is counted', () => {
  it('its archive and extracted files are the usage, shown apart from files, equal to what is stored', async () => {
    const p = await createSiteProject(t);
    expect(await usage(p)).toMatchObject({ usage_bytes: 0, files_bytes: 0, hosting_bytes: 0, quota_bytes: 5 * GiB });
    const { zip, extracted } = siteZip('v1', 30, 8192);
    expect((await deploy(t, p, zip, 'Static')).statusCode).toBe(200);

    const u = await usage(p);
    expect(u.hosting_bytes).toBe(zip.length + extracted);
    expect(u).toMatchObject({ files_bytes: 0, usage_bytes: u.hosting_bytes });
    expect((await bytesOnDisk(p)).total).toBe(u.hosting_bytes);

    const file = await upload(t, p.dev.token, p.id, [{ name: 'a.bin', content: Buffer.alloc(1234, 1) }]);
    expect(file.statusCode).toBe(200);
    expect(await usage(p)).toEqual(expect.objectContaining({ files_bytes: 1234, hosting_bytes: zip.length + extracted, usage_bytes: 1234 + zip.length + extracted }));
  });

  it('a deploy that would pass the plan limit is refused with 413 naming it; nothing is kept, the live site stays', async () => {
    const p = await createSiteProject(t);
    const first = siteZip('kept', 5);
    expect((await deploy(t, p, first.zip, 'Static')).statusCode).toBe(200);
    const before = await usage(p);
    const big = siteZip('too big', 40, 16384);
    // Room for the archive alone, not for the archive and its files.
    await occupy(p.id, 5 * GiB - before.usage_bytes - big.zip.length - 100);
    const full = await usage(p);

    const res = await deploy(t, p, big.zip, 'Static');
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/^Storage quota exceeded: the Hobby plan allows 5 GiB and [\d.]+ GiB is in use; this deployment \(its archive and extracted files\) needs 1.25 MiB$/);
    expect(await title(p)).toBe('kept');
    const h = await history(p);
    expect(h.deployments[0]).toMatchObject({ status: 'failed', live: false, error: res.json().message });
    expect(await usage(p)).toEqual(full);
    const disk = await bytesOnDisk(p);
    expect([...disk.deployments]).toEqual([h.live_deployment_id]);
    expect(disk.total).toBe(before.hosting_bytes);
  });

  it('a full account is refused before its zip is read, and uploads count deployments too', async () => {
    const p = await createSiteProject(t);
    const { zip } = siteZip('site', 10);
    expect((await deploy(t, p, zip, 'Static')).statusCode).toBe(200);
    const { hosting_bytes } = await usage(p);
    // Files alone would leave room for 1000 bytes more; with the site's bytes there is none.
    await occupy(p.id, 5 * GiB - 1000);
    const file = await upload(t, p.dev.token, p.id, [{ name: 'b.bin', content: Buffer.alloc(500) }]);
    expect(file.statusCode).toBe(413);
    expect(file.json().message).toMatch(/^Storage quota exceeded: the Hobby plan allows 5 GiB/);
    const again = await deploy(t, p, zip, 'Static');
    expect(again.statusCode).toBe(413);
    expect(again.json().message).toMatch(/^Storage quota exceeded: the Hobby plan allows 5 GiB and 5 GiB is in use$/);
    expect((await usage(p)).hosting_bytes).toBe(hosting_bytes);
  });

  it('two deploys racing for the last room: one goes live, the other gets 413 (the upload quota\'s locked check)', async () => {
    const p = await createSiteProject(t);
    const q = await createSiteProject(t, p.dev);
    const a = siteZip('a', 20, 8192);
    const b = siteZip('b', 20, 8192);
    const need = a.zip.length + a.extracted; // b needs a few bytes more or less: same file sizes
    await occupy(p.id, 5 * GiB - Math.floor(need * 1.5));
    const results = await Promise.all([deploy(t, p, a.zip, 'Static'), deploy(t, q, b.zip, 'Static')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 413]);
    const u = await usage(p);
    expect(u.usage_bytes).toBeLessThanOrEqual(5 * GiB);
    expect(u.hosting_bytes).toBe((await bytesOnDisk(p)).total + (await bytesOnDisk(q)).total);
  });

  it('a deploy that fails after its bytes were reserved gives them back', async () => {
    const p = await createSiteProject(t);
    expect((await deploy(t, p, siteZip('ok').zip, 'Static')).statusCode).toBe(200);
    const before = await usage(p);
    // Damage only the extraction can see: the central directory is fine, so the bytes are reserved first.
    const zip = makeZip([{ name: 'index.html', data: 'a'.repeat(4000), deflate: true }]);
    Buffer.alloc(8, 0xff).copy(zip, 30 + 'index.html'.length);
    const res = await deploy(t, p, zip, 'Static');
    expect(res.statusCode).toBe(400);
    expect((await history(p)).deployments[0]).toMatchObject({ status: 'failed' });
    expect(await usage(p)).toEqual(before);
    expect((await bytesOnDisk(p)).total).toBe(before.hosting_bytes);
  });

  it('deleting the project gives its deployments\' bytes back', async () => {
    const p = await createSiteProject(t);
    const other = await createSiteProject(t, p.dev);
    expect((await deploy(t, p, siteZip('x').zip, 'Static')).statusCode).toBe(200);
    expect((await usage(other)).hosting_bytes).toBeGreaterThan(0);
    expect((await t.post(`/project/${p.id}/delete`, { confirm: p.subdomain }, p.dev.token)).statusCode).toBe(200);
    expect((await usage(other)).hosting_bytes).toBe(0);
  });
});

describe(`only the newest ${KEEP} deployments are kept`, () => {
  const activate = (p: SiteProject, id: string) => t.post(`/project/${p.id}/deployments/${id}/activate`, {}, p.dev.token);

  it('older ones are pruned with their archive, extracted files and bytes', async () => {
    const p = await createSiteProject(t);
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const res = await deploy(t, p, siteZip(`v${i}`).zip, 'Static');
      expect(res.statusCode).toBe(200);
      ids.push(res.json().deployment.id);
    }
    expect((await history(p)).deployments.map((d) => d.id)).toEqual(ids.slice(2).reverse());
    const disk = await bytesOnDisk(p);
    expect(disk.deployments).toEqual(new Set(ids.slice(2)));
    expect(fs.readdirSync(path.join(t.dataDir, 'hosting', 'cache')).filter((d) => ids.includes(d)).sort()).toEqual(ids.slice(2).sort());
    expect((await usage(p)).hosting_bytes).toBe(disk.total);
    expect((await activate(p, ids[0])).statusCode).toBe(404);
    expect((await activate(p, ids[2])).statusCode).toBe(200);
    expect(await title(p)).toBe('v3');
  });

  it('failed attempts are pruned to the newest ones too, and never push out rollback targets', async () => {
    const p = await createSiteProject(t);
    const built: string[] = [];
    for (let i = 1; i <= KEEP; i++) built.push((await deploy(t, p, siteZip(`ok${i}`).zip, 'Static')).json().deployment.id);
    for (let i = 0; i < KEEP + 2; i++) expect((await deploy(t, p, Buffer.from('not a zip'), 'Static')).statusCode).toBe(400);
    const h = await history(p);
    expect(h.deployments.filter((d) => d.status === 'failed')).toHaveLength(KEEP);
    expect(h.deployments.filter((d) => d.status !== 'failed').map((d) => d.id)).toEqual([...built].reverse());
    expect((await usage(p)).hosting_bytes).toBe((await bytesOnDisk(p)).total);
  });

  it('the live deployment is never pruned, however old (HOSTING_KEEP_DEPLOYMENTS lowered to 1)', async () => {
    const p = await createSiteProject(t);
    const ids: string[] = [];
    for (let i = 1; i <= 3; i++) ids.push((await deploy(t, p, siteZip(`r${i}`).zip, 'Static')).json().deployment.id);
    expect((await activate(p, ids[0])).statusCode).toBe(200); // the oldest is the rollback target
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-keep1-'));
    const config = { ...loadConfig({ DATA_DIR: dir, JWT_SECRET: t.config.jwtSecret, LOG_LEVEL: 'silent', HOSTING_KEEP_DEPLOYMENTS: '1' }), webDir: undefined };
    const keepOne = await buildApp(config, { database: t.database, objectStore: t.app.deps.objectStore, logger: false });
    try {
      // A deploy through that instance that fails still prunes: 1 built one is kept, and the live one.
      expect((await deploy({ ...t, app: keepOne }, p, Buffer.from('not a zip'), 'Static')).statusCode).toBe(400);
    } finally {
      await keepOne.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const h = await history(p);
    expect(h.live_deployment_id).toBe(ids[0]);
    expect(h.deployments.filter((d) => d.status !== 'failed').map((d) => d.id)).toEqual([ids[2], ids[0]]);
    expect(await title(p)).toBe('r1');
    expect((await bytesOnDisk(p)).deployments).toEqual(new Set([ids[0], ids[2]]));
    expect((await usage(p)).hosting_bytes).toBe((await bytesOnDisk(p)).total);
  });

  it('a deployment still being built (by another instance) is never pruned', async () => {
    const p = await createSiteProject(t);
    const [building] = await t.database.query<{ id: string }>(
      `INSERT INTO site_deployments (project_id, type, status, builder, heartbeat_at, created_at, stored_bytes)
       VALUES ($1, 'Static', 'building', 'another-instance', now(), now() - interval '1 hour', 777) RETURNING id`,
      [p.id],
    );
    await t.app.deps.lookups.barrier();
    for (let i = 0; i < KEEP + 1; i++) expect((await deploy(t, p, siteZip(`b${i}`).zip, 'Static')).statusCode).toBe(200);
    const h = await history(p);
    expect(h.deployments.find((d) => d.id === building.id)).toMatchObject({ status: 'building' });
    // Its reservation counts while it builds.
    expect((await usage(p)).hosting_bytes).toBe((await bytesOnDisk(p)).total + 777);
    await t.database.query(`DELETE FROM site_deployments WHERE id = $1`, [building.id]);
  });
});

describe('builds of dead instances (several instances, one database)', () => {
  /** Another instance starting on the same database, with its own DATA_DIR (or this one's: a restart). */
  async function startInstance(dataDir: string) {
    const config = { ...loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x', LOG_LEVEL: 'silent', PASSWORD_HASH_COST: '12' }), webDir: undefined };
    const app = await buildApp(config, { database: t.database, objectStore: t.app.deps.objectStore, logger: false });
    await app.ready();
    return app;
  }

  async function building(projectId: string, builder: string, heartbeatAgo: string) {
    const [row] = await t.database.query<{ id: string }>(
      `INSERT INTO site_deployments (project_id, type, status, builder, heartbeat_at, stored_bytes)
       VALUES ($1, 'Static', 'building', $2, now() - $3::interval, 5000) RETURNING id`,
      [projectId, builder, heartbeatAgo],
    );
    await t.app.deps.lookups.barrier();
    // A partial archive, as a builder killed mid-upload leaves it.
    await t.app.deps.objectStore.put(`sites/${projectId}/${row.id}/archive.zip`, require('node:stream').Readable.from([Buffer.alloc(5000)]));
    return row.id;
  }

  async function status(id: string) {
    const [row] = await t.database.query<{ status: string; error: string | null; stored_bytes: string; build_log: string }>(
      `SELECT status, error, stored_bytes, build_log FROM site_deployments WHERE id = $1`,
      [id],
    );
    return { ...row, stored_bytes: Number(row.stored_bytes) };
  }

  const archived = (projectId: string, id: string) => t.app.deps.objectStore.exists(`sites/${projectId}/${id}/archive.zip`);

  it('another instance starting leaves live builds alone and fails those whose heartbeat ran out', async () => {
    const p = await createSiteProject(t);
    expect((await deploy(t, p, siteZip('stays').zip, 'Static')).statusCode).toBe(200);
    const alive = await building(p.id, 'instance-a', '5 seconds');
    const dead = await building(p.id, 'instance-b', '10 minutes');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-other-'));
    const other = await startInstance(dir);
    try {
      expect(await status(alive)).toMatchObject({ status: 'building', error: null, stored_bytes: 5000 });
      expect(await archived(p.id, alive)).toBe(true);
      const d = await status(dead);
      expect(d).toMatchObject({ status: 'failed', error: 'interrupted by a restart', stored_bytes: 0 });
      expect(d.build_log).toContain('Failed: interrupted by a restart');
      expect(await archived(p.id, dead)).toBe(false);
      expect(await title(p)).toBe('stays');
      // The live build's reservation still counts (and its partial archive is still stored).
      expect((await usage(p)).hosting_bytes).toBe((await bytesOnDisk(p)).total);
    } finally {
      await other.close();
      fs.rmSync(dir, { recursive: true, force: true });
      await t.database.query(`DELETE FROM site_deployments WHERE id = $1`, [alive]);
      await t.app.deps.objectStore.deletePrefix(`sites/${p.id}/${alive}/`);
    }
  });

  it('an instance restarting fails its own builds at once, heartbeat or not', async () => {
    const p = await createSiteProject(t);
    expect((await deploy(t, p, siteZip('still live').zip, 'Static')).statusCode).toBe(200);
    const me = fs.readFileSync(path.join(t.dataDir, 'hosting', 'instance-id'), 'utf8').trim();
    const mine = await building(p.id, me, '1 second');
    const theirs = await building(p.id, 'instance-c', '1 second');
    fs.mkdirSync(path.join(t.dataDir, 'hosting', 'tmp', 'deploy-leftover', 'assets'), { recursive: true });
    fs.writeFileSync(path.join(t.dataDir, 'hosting', 'tmp', 'deploy-leftover', 'assets', 'a.js'), 'x');
    fs.mkdirSync(path.join(t.dataDir, 'hosting', 'tmp', 'upload-leftover'));
    fs.mkdirSync(path.join(t.dataDir, 'hosting', 'cache', mine), { recursive: true });
    const restarted = await startInstance(t.dataDir);
    try {
      expect(await status(mine)).toMatchObject({ status: 'failed', error: 'interrupted by a restart', stored_bytes: 0 });
      expect(await archived(p.id, mine)).toBe(false);
      expect(fs.existsSync(path.join(t.dataDir, 'hosting', 'cache', mine))).toBe(false);
      expect(await status(theirs)).toMatchObject({ status: 'building', stored_bytes: 5000 });
      expect(fs.readdirSync(path.join(t.dataDir, 'hosting', 'tmp'))).toEqual([]);
      expect(await title(p)).toBe('still live');
      const res = await restarted.inject({ method: 'GET', url: '/', headers: { host: p.host } });
      expect(res.body).toContain('<title>still live</title>');
    } finally {
      await restarted.close();
      await t.database.query(`DELETE FROM site_deployments WHERE id = $1`, [theirs]);
    }
  });
});
