// The storage quota over a real database: one account's files and site deployments count against
// its plan's limit, a charge that would pass it writes nothing and answers a 413 that names the
// limit, and two concurrent charges can't both squeeze under it.
import { randomUUID } from 'node:crypto';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app';
import { createProject, registerDeveloper, type Project } from '../../../../test/helpers/factories';
import { planLimits } from '../plans/plans';
import { StorageQuota } from './quota';
import { StorageRepository, type Tx } from './storage.repository';
import { storageObjects } from './storage.tables';

let t: TestApp;
let quota: StorageQuota;
let n = 0;
beforeAll(async () => {
  t = await buildTestApp();
  quota = new StorageQuota(new StorageRepository(t.database.db));
});
afterAll(() => t.close());

const HOBBY = planLimits('hobby').storageBytes;
const insertFile = (p: Project, bytes: number) => async (tx: Tx) => {
  n += 1;
  const [row] = await tx
    .insert(storageObjects)
    .values({ objectId: randomUUID(), projectId: p.id, storageKey: `k${n}`, name: `f${n}`, objectType: 'application/octet-stream', objectSize: bytes, etag: 'e', shareSegment: `s${n}-${Date.now()}` })
    .returning();
  return row;
};

test('counts the bytes of every project of the owner, and the plan allowance', async () => {
  const dev = await registerDeveloper(t);
  const [a, b] = [await createProject(t, dev), await createProject(t, dev)];
  await quota.charge(dev.id, 100, insertFile(a, 100));
  await quota.charge(dev.id, 50, insertFile(b, 50));
  const other = await createProject(t);
  await quota.charge(other.dev.id, 7, insertFile(other, 7));
  expect(await quota.usage(dev.id)).toEqual({ plan: 'hobby', planLabel: 'Hobby', quotaBytes: HOBBY, usedBytes: 150, filesBytes: 150, hostingBytes: 0 });
});

test('a charge up to the limit passes; one byte more is a 413 naming the limit, and nothing is written', async () => {
  const p = await createProject(t);
  await expect(quota.charge(p.dev.id, HOBBY - 10, insertFile(p, HOBBY - 10))).resolves.toMatchObject({ objectSize: HOBBY - 10 });
  await expect(quota.charge(p.dev.id, 10, insertFile(p, 10))).resolves.toMatchObject({ objectSize: 10 });
  const write = jest.fn(insertFile(p, 1));
  const refused = quota.charge(p.dev.id, 1, write, 'this upload');
  await expect(refused).rejects.toMatchObject({ statusCode: 413 });
  await expect(quota.charge(p.dev.id, 1, write, 'this upload')).rejects.toThrow(/Storage quota exceeded: the Hobby plan allows .* and .* is in use; this upload needs 1 bytes/);
  expect(write).not.toHaveBeenCalled();
  expect((await quota.usage(p.dev.id)).usedBytes).toBe(HOBBY);
});

test('a write that finds its row gone charges nothing and answers undefined', async () => {
  const p = await createProject(t);
  await expect(quota.charge(p.dev.id, 5, async () => undefined)).resolves.toBeUndefined();
  expect((await quota.usage(p.dev.id)).usedBytes).toBe(0);
});

test('two concurrent charges that each fit but not together: exactly one wins', async () => {
  const p = await createProject(t);
  const half = Math.floor(HOBBY / 2) + 1;
  const results = await Promise.allSettled([quota.charge(p.dev.id, half, insertFile(p, half)), quota.charge(p.dev.id, half, insertFile(p, half))]);
  expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  const [{ used }] = await t.database.query<{ used: string }>('SELECT sum(object_size) AS used FROM storage_objects WHERE project_id = $1', [p.id]);
  expect(Number(used)).toBe(half);
});
