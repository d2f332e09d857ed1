// transactionWithActivity: the entry commits with the change, or rolls back with it.
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app';
import { registerDeveloper, type Developer } from '../helpers/factories';
import { runWithActivity, transactionWithActivity, type PendingActivity } from '../../server/src/modules/activity/activity.context';
import { activityLog } from '../../server/src/modules/activity/activity.tables';
import { accounts } from '../../server/src/modules/accounts/accounts.tables';

let t: TestApp;
let dev: Developer;

const pending = (summary: string): PendingActivity => ({
  operationId: 'getAccountDetails', accountId: dev.id, projectId: null, ip: '192.0.2.1', describe: () => summary, notes: {}, written: false,
});
const summaries = async () => (await t.database.db.select().from(activityLog).where(eq(activityLog.accountId, dev.id))).map((r) => r.summary);

beforeAll(async () => {
  t = await buildTestApp();
  dev = await registerDeveloper(t);
});
afterAll(() => t.close());

test('a change that rolls back takes its entry with it; a later attempt writes it once', async () => {
  const p = pending('Renamed');
  const { db } = t.database;
  await runWithActivity(p, async () => {
    await expect(
      transactionWithActivity(db, ['getAccountDetails'], async (tx) => {
        await tx.update(accounts).set({ name: 'Half done' }).where(eq(accounts.id, dev.id));
        throw new Error('refused after the change');
      }),
    ).rejects.toThrow('refused after the change');
    expect(p.written).toBe(false);
    expect(await summaries()).not.toContain('Renamed');
    await transactionWithActivity(db, ['getAccountDetails'], (tx) => tx.update(accounts).set({ name: 'Done' }).where(eq(accounts.id, dev.id)));
    await transactionWithActivity(db, ['getAccountDetails'], (tx) => tx.update(accounts).set({ name: 'Done again' }).where(eq(accounts.id, dev.id)));
  });
  expect(p.written).toBe(true);
  expect((await summaries()).filter((s) => s === 'Renamed')).toHaveLength(1);
});

test('a transaction whose result says nothing changed writes no entry', async () => {
  const p = pending('Nothing');
  await runWithActivity(p, () => transactionWithActivity(t.database.db, ['getAccountDetails'], async () => undefined, () => false));
  expect(p.written).toBe(false);
  expect(await summaries()).not.toContain('Nothing');
});

test("another operation's transaction does not write this request's entry", async () => {
  const p = pending('Not mine');
  await runWithActivity(p, () => transactionWithActivity(t.database.db, ['deleteProject'], (tx) => tx.update(accounts).set({ name: 'Other' }).where(eq(accounts.id, dev.id))));
  expect(p.written).toBe(false);
  expect(await summaries()).not.toContain('Not mine');
});

test('outside a request it is a plain transaction', async () => {
  const before = (await summaries()).length;
  await transactionWithActivity(t.database.db, ['getAccountDetails'], (tx) => tx.update(accounts).set({ name: 'Plain' }).where(eq(accounts.id, dev.id)));
  expect((await summaries()).length).toBe(before);
});
