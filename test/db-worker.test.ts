// Embedded PGlite in its worker thread (server/src/db/pglite-host.ts): values come back as an
// in-thread PGlite gives them; a statement past its deadline fails with PostgreSQL's timeout error
// and the data dir reopens with everything committed; the platform's units go before queued
// tenant units, and a killed caller's units admitted before the kill fail without running;
// listeners hear of the gap; an in-memory database lost with its worker fails loudly.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { bigint, boolean, date, integer, interval, json, jsonb, numeric, pgTable, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { openDatabase, type Database } from '../server/src/db/client';

jest.setTimeout(120_000);

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-dbworker-'));
const dirs: string[] = [];
let database: Database;
const logged: { level: string; msg: string }[] = [];
const log = { warn: (_o: object, msg: string) => logged.push({ level: 'warn', msg }), error: (_o: object, msg: string) => logged.push({ level: 'error', msg }) };

beforeAll(async () => {
  const dir = tmp();
  dirs.push(dir);
  database = await openDatabase({ pgliteDir: path.join(dir, 'pglite'), migrate: false, log });
  await database.exec('CREATE TABLE marks (v text PRIMARY KEY)');
});
afterAll(async () => {
  await database.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const marks = async () => (await database.query<{ v: string }>('SELECT v FROM marks ORDER BY v')).map((r) => r.v);
const mark = (v: string) => database.query('INSERT INTO marks VALUES ($1)', [v]);
/** A tenant's statement that runs past its deadline (the worker is restarted to end it). */
const runaway = (caller: string, timeoutMs = 300) => database.pipeline([{ text: 'SELECT pg_sleep(30)' }], { tenant: { timeoutMs, caller } });

const kinds = pgTable('kinds', {
  id: serial('id').primaryKey(),
  t: text('t'),
  i: integer('i'),
  big: bigint('big', { mode: 'bigint' }),
  bigNum: bigint('big_num', { mode: 'number' }),
  n: numeric('n'),
  b: boolean('b'),
  at: timestamp('at', { withTimezone: true }),
  local: timestamp('local', { mode: 'string' }),
  day: date('day'),
  span: interval('span'),
  doc: jsonb('doc'),
  raw: json('raw'),
  u: uuid('u'),
  tags: text('tags').array(),
  nums: integer('nums').array(),
});
const KINDS_DDL = `CREATE TABLE kinds (id serial PRIMARY KEY, t text, i integer, big bigint, big_num bigint, n numeric, b boolean, at timestamptz,
  local timestamp, day date, span interval, doc jsonb, raw json, u uuid, tags text[], nums integer[])`;
const KINDS_ROW = `INSERT INTO kinds (t, i, big, big_num, n, b, at, local, day, span, doc, raw, u, tags, nums) VALUES
  ('x', 7, 9007199254740993, 12, 1.10, true, '2026-01-02T03:04:05.678Z', '2026-01-02 03:04:05', '2026-01-02', '1 day 02:03:04',
   '{"k": [1, {"z": null}]}', '{"a": 1}', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{a,"b c"}', '{1,2}'), (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`;

test('values come back as an in-thread PGlite gives them: raw queries, arrays, and drizzle (dates, json, numerics, bigint, arrays)', async () => {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const inThread = await PGlite.create();
  try {
    for (const target of [inThread, database]) {
      await (target === database ? database.exec(KINDS_DDL) : inThread.exec(KINDS_DDL));
      await (target === database ? database.exec(KINDS_ROW) : inThread.exec(KINDS_ROW));
    }
    const select = "SELECT *, 1.5::float8 AS f, count(*) OVER () AS c, '\\x00ff'::bytea AS y, ARRAY[1.5, 2]::numeric[] AS ns FROM kinds ORDER BY id";
    expect(await database.query(select)).toStrictEqual((await inThread.query(select)).rows);
    const arrays = await database.transaction((tx) => tx.queryArrays(select));
    const expected = await inThread.query(select, [], { rowMode: 'array' });
    expect(arrays.rows).toStrictEqual(expected.rows);
    expect(arrays.fields).toEqual(expected.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })));

    const here = drizzle(inThread);
    const rows = await database.db.select().from(kinds).orderBy(kinds.id);
    expect(rows).toStrictEqual(await here.select().from(kinds).orderBy(kinds.id));
    expect(rows[0]).toMatchObject({ big: 9007199254740993n, bigNum: 12, n: '1.10', at: new Date('2026-01-02T03:04:05.678Z'), day: '2026-01-02', doc: { k: [1, { z: null }] } });
    const raw = sql`SELECT at, day, span, doc, big FROM kinds ORDER BY id`;
    expect(((await database.db.execute(raw)) as unknown as { rows: unknown[] }).rows).toStrictEqual((await here.execute(raw)).rows);
    const inTx = await database.db.transaction((tx) => tx.select({ at: kinds.at, tags: kinds.tags }).from(kinds).orderBy(kinds.id));
    expect(inTx).toStrictEqual(await here.transaction((tx) => tx.select({ at: kinds.at, tags: kinds.tags }).from(kinds).orderBy(kinds.id)));
    // Parameters cross too: a Date, bytes and JSON as values.
    const bound = 'SELECT $1::timestamptz AS at, $2::bytea AS y, $3::jsonb AS j, $4::bigint AS b';
    const params = [new Date('2026-03-04T05:06:07Z'), new Uint8Array([1, 2]), JSON.stringify({ a: [1] }), 9007199254740993n];
    expect(await database.query(bound, params)).toStrictEqual((await inThread.query(bound, params)).rows);
  } finally {
    await inThread.close();
  }
});

test('a statement past its deadline fails with PostgreSQL\'s timeout error; committed rows survive the reopening, the transaction it was in does not', async () => {
  await mark('committed');
  const failed = await database
    .transaction(async (tx) => {
      await tx.query("INSERT INTO marks VALUES ('uncommitted')");
      await tx.query('SELECT pg_sleep(30)');
    }, { tenant: { timeoutMs: 300, caller: 'deadline' } })
    .catch((e: unknown) => e);
  expect(failed).toMatchObject({ code: '57014', message: 'canceling statement due to statement timeout' });
  // The next call waits for the new worker (PostgreSQL's crash recovery of the data dir).
  expect(await marks()).toEqual(['committed']);
  expect(logged.some((l) => l.level === 'warn' && /reopening its data dir/.test(l.msg))).toBe(true);
});

test("the platform's units go before queued tenant units; a killed caller's units admitted before the kill fail without running, another caller's run", async () => {
  const admitted = Date.now();
  const finished: string[] = [];
  const track = (name: string, p: Promise<unknown>) =>
    p.then(
      () => finished.push(`${name} ok`),
      (e: { code?: string }) => finished.push(`${name} ${e.code}`),
    );
  // Units start in the order they are queued (the first one at once): the runaway runs, the rest wait.
  const all = Promise.all([
    track('runaway', runaway('attacker')),
    track('attacker again', database.pipeline([{ text: "INSERT INTO marks VALUES ('attacker again')" }], { tenant: { timeoutMs: 5000, caller: 'attacker' } })),
    track('neighbour', database.pipeline([{ text: "INSERT INTO marks VALUES ('neighbour')" }], { tenant: { timeoutMs: 5000, caller: 'neighbour' } })),
    track('platform', mark('platform')),
  ]);
  await all;
  expect(finished[0]).toBe('runaway 57014');
  expect(finished.indexOf('platform ok')).toBeLessThan(finished.indexOf('neighbour ok'));
  expect(finished).toContain('attacker again HB_CALLER_PAUSED');
  expect(await marks()).toEqual(expect.arrayContaining(['neighbour', 'platform']));
  expect(await marks()).not.toContain('attacker again');
  // Admitted before the kill (past the API's pause check, which had not heard of it yet), sent after it: refused.
  await expect(database.pipeline([{ text: 'SELECT 1' }], { tenant: { timeoutMs: 5000, caller: 'attacker', admittedAt: admitted } })).rejects.toMatchObject({
    code: 'HB_CALLER_PAUSED',
    retryAfterSeconds: 10,
  });
  // Admitted after it: the API's pause decides (modules/database/timeout-cooldown.ts), the engine runs it.
  expect(await database.pipeline([{ text: 'SELECT 1 AS one' }], { tenant: { timeoutMs: 5000, caller: 'attacker' } })).toEqual([[{ one: 1 }]]);
});

test('without a kill too: a platform unit queued after a tenant unit runs before it', async () => {
  const order: string[] = [];
  const running = database.pipeline([{ text: 'SELECT pg_sleep(0.2)' }], { tenant: { timeoutMs: 5000, caller: 'slow' } }).then(() => order.push('running'));
  const tenant = database.pipeline([{ text: 'SELECT 1' }], { tenant: { timeoutMs: 5000, caller: 'other' } }).then(() => order.push('tenant'));
  const platform = database.query('SELECT 1').then(() => order.push('platform'));
  await Promise.all([running, tenant, platform]);
  expect(order).toEqual(['running', 'platform', 'tenant']);
});

test("a platform statement has a deadline of its own (DB_PLATFORM_STATEMENT_TIMEOUT_MS)", async () => {
  const dir = tmp();
  dirs.push(dir);
  const short = await openDatabase({ pgliteDir: path.join(dir, 'pglite'), migrate: false, platformStatementTimeoutMs: 300 });
  try {
    await expect(short.query('SELECT pg_sleep(30)')).rejects.toMatchObject({ code: '57014' });
    expect(await short.query('SELECT 2 AS two')).toEqual([{ two: 2 }]);
  } finally {
    await short.close();
  }
});

test('listeners get notifications from the worker, hear of a restart (gap, then resume), and get the later ones', async () => {
  const payloads: string[] = [];
  const events: string[] = [];
  let resumed!: () => void;
  const resume = new Promise<void>((r) => (resumed = r));
  const unlisten = await database.listen('dbworker_test', (p) => payloads.push(p), () => events.push('gap'), () => {
    events.push('resume');
    resumed();
  });
  await database.query("SELECT pg_notify('dbworker_test', 'before')");
  expect(payloads).toEqual(['before']);
  await expect(runaway('listener')).rejects.toMatchObject({ code: '57014' });
  await resume;
  await database.query("SELECT pg_notify('dbworker_test', 'after')");
  expect(payloads).toEqual(['before', 'after']);
  expect(events).toEqual(['gap', 'resume']);
  await unlisten();
  await database.query("SELECT pg_notify('dbworker_test', 'unheard')");
  expect(payloads).toEqual(['before', 'after']);
});

test('a transaction that swallowed a failed statement is rolled back, not committed (25P02), and the next call is fine', async () => {
  await expect(
    database.transaction(async (tx) => {
      await tx.query("INSERT INTO marks VALUES ('swallowed')");
      await tx.query('SELECT 1/0').catch(() => undefined);
    }),
  ).rejects.toMatchObject({ code: '25P02' });
  expect(await marks()).not.toContain('swallowed');
});

test('an in-memory database lost with its worker fails every later call, loudly, and never comes back empty', async () => {
  const lost: { level: string; msg: string }[] = [];
  const memory = await openDatabase({ pgliteDir: 'memory://', migrate: false, log: { warn: () => undefined, error: (_o, msg) => lost.push({ level: 'error', msg }) } });
  try {
    await memory.exec("CREATE TABLE t (v text); INSERT INTO t VALUES ('kept?')");
    await expect(memory.pipeline([{ text: 'SELECT pg_sleep(30)' }], { tenant: { timeoutMs: 300 } })).rejects.toMatchObject({ code: '57014' });
    await expect(memory.query('SELECT v FROM t')).rejects.toMatchObject({ code: '57P01', message: expect.stringMatching(/in-memory database was lost/) });
    await expect(memory.query('SELECT 1')).rejects.toMatchObject({ code: '57P01' });
    expect(lost).toEqual([{ level: 'error', msg: expect.stringMatching(/in-memory embedded database was lost/) }]);
  } finally {
    await memory.close();
  }
});

test('close lets the queued units finish first, then refuses new ones', async () => {
  const dir = tmp();
  dirs.push(dir);
  const closing = await openDatabase({ pgliteDir: path.join(dir, 'pglite'), migrate: false });
  const queued = [closing.query('SELECT pg_sleep(0.1)'), closing.query('SELECT 3 AS three')];
  const closed = closing.close();
  await expect(Promise.all(queued)).resolves.toEqual([[{ pg_sleep: '' }], [{ three: 3 }]]);
  await closed;
  await expect(closing.query('SELECT 1')).rejects.toMatchObject({ code: '57P01' });
});
