// The usage registry: the plans module asks, each module counts its own rows. The registry alone
// (what it asks, and when it refuses), then the app's: every counted limit has its counter, and
// an account's figures are its own projects' only.
import type { Db } from '../../server/src/db/client';
import { usageRegistry, UsageRegistry, type CountedLimit } from '../../server/src/modules/plans/usage-registry';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, registerDeveloper, signUpEndUser } from '../helpers/factories';

jest.setTimeout(60_000);

const q = {} as Db;
const SINCE = new Date('2026-11-01T00:00:00Z');

describe('UsageRegistry', () => {
  test('refuses to count a limit no module counts, and an account scope before projects answer', async () => {
    const registry = new UsageRegistry();
    await expect(registry.count('mailboxes', q, { projectId: 'p1' })).rejects.toThrow('no module counts mailboxes');
    registry.register('mailboxes', async () => 1);
    await expect(registry.count('mailboxes', q, { accountId: 'a1' })).rejects.toThrow('no module answers for the projects of an account');
  });

  test("asks the owner's counter with the scope's project ids, the handle and the date it was given", async () => {
    const registry = new UsageRegistry();
    const calls: unknown[][] = [];
    registry.provideProjects(async (handle, accountId) => (handle === q && accountId === 'a1' ? ['p1', 'p2'] : []));
    registry.register('bandwidth', async (handle, ids, since) => {
      calls.push([handle, ids, since]);
      return 7;
    });
    expect(await registry.count('bandwidth', q, { accountId: 'a1' }, SINCE)).toBe(7);
    expect(await registry.count('bandwidth', q, { projectId: 'p9' }, SINCE)).toBe(7);
    expect(calls).toEqual([
      [q, ['p1', 'p2'], SINCE],
      [q, ['p9'], SINCE],
    ]);
  });

  test('an account without projects uses nothing: its counter is not asked', async () => {
    const registry = new UsageRegistry();
    registry.provideProjects(async () => []);
    registry.register('database', async () => {
      throw new Error('asked');
    });
    expect(await registry.count('database', q, { accountId: 'a1' })).toBe(0);
  });
});

describe("the app's registry", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  test("every counted limit is counted, for the account's own projects only", async () => {
    const dev = await registerDeveloper(t, { ip: '10.41.0.1' });
    const other = await registerDeveloper(t, { ip: '10.41.0.2' });
    const first = await createProject(t, dev);
    await createProject(t, dev);
    await createProject(t, other);
    await signUpEndUser(t, first);
    await signUpEndUser(t, first);

    const registry = usageRegistry(t.app.deps);
    const db = t.app.deps.db;
    const count = (limit: CountedLimit, accountId: string) => registry.count(limit, db, { accountId }, SINCE);
    expect(await count('projects', dev.id)).toBe(2);
    expect(await count('projects', other.id)).toBe(1);
    expect(await count('monthly_active_users', dev.id)).toBe(2);
    expect(await count('monthly_active_users', other.id)).toBe(0);
    expect(await registry.count('monthly_active_users', db, { projectId: first.id }, SINCE)).toBe(2);
    for (const limit of ['mailboxes', 'bandwidth', 'database'] as const) expect(await count(limit, dev.id)).toBe(0);
  });
});
