// Usage figures equal what the test did: N API calls with a project's keys (by status class),
// M bytes uploaded, K end users signed in; two instances on one database add up; a bad range is
// a 400; another account sees none of it.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildTestApp, secondInstance, type TestApp } from '../helpers/app';
import { applyRetention } from '../../server/src/modules/usage/retention';
import { bucketUpload, createProject, registerDeveloper, signUpEndUser, type Developer, type Project } from '../helpers/factories';

jest.setTimeout(60_000);

type Classes = { s2xx: number; s3xx: number; s4xx: number; s5xx: number };

let t: TestApp;
let b: FastifyInstance;
let second: Awaited<ReturnType<typeof secondInstance>> | undefined;
let dev: Developer;
let other: Developer;
let project: Project;

beforeAll(async () => {
  t = await buildTestApp();
  dev = await registerDeveloper(t, { ip: '10.13.0.1' });
  other = await registerDeveloper(t, { ip: '10.13.0.2' });
  project = await createProject(t, dev);
});
afterAll(async () => {
  await second?.close();
  await t.close();
});

/** Every count the instance holds, written (the onResponse hooks of answered calls have run). */
async function flush(...apps: FastifyInstance[]): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await Promise.all((apps.length ? apps : [t.app]).map((app) => app.usageCounter.flush()));
}

async function usage(token: string, body: object = {}, projectId?: string): Promise<LightMyRequestResponse> {
  return t.post(projectId ? `/project/${projectId}/usage` : '/usage', body, token);
}

async function report(body: object = {}, projectId?: string) {
  const res = await usage(dev.token, body, projectId);
  expect(res.statusCode).toBe(200);
  return res.json();
}

function classesOf(statuses: number[]): Classes {
  const c = { s2xx: 0, s3xx: 0, s4xx: 0, s5xx: 0 };
  for (const s of statuses) c[`s${Math.floor(s / 100)}xx` as keyof Classes] += 1;
  return c;
}

function minus(a: Classes, b: Classes): Classes {
  return { s2xx: a.s2xx - b.s2xx, s3xx: a.s3xx - b.s3xx, s4xx: a.s4xx - b.s4xx, s5xx: a.s5xx - b.s5xx };
}

const keyCall = (app: FastifyInstance, key: string, url: string, method: 'GET' | 'POST' = 'GET', payload?: object, ip?: string) =>
  app.inject({ method, url: '/api' + url, headers: { 'x-api-key': key }, ...(payload ? { payload } : {}), ...(ip ? { remoteAddress: ip } : {}) });

test('N calls, M bytes and K sign-ins are exactly what the dashboard reads', async () => {
  await flush();
  const before = await report();
  const beforeProject = await report({}, project.id);
  expect(before.totals.active_users_month).toBe(0);

  const statuses: number[] = [];
  const sent = (res: LightMyRequestResponse) => (statuses.push(res.statusCode), res);
  // N calls with the bucket key: listings (200) and unknown objects (404).
  for (let i = 0; i < 3; i++) expect(sent(await keyCall(t.app, project.bucketKey, '/storage/v1/objects')).statusCode).toBe(200);
  for (let i = 0; i < 2; i++) expect(sent(await keyCall(t.app, project.bucketKey, '/storage/v1/objects/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  // M bytes uploaded with the key (each upload is a call too).
  const sizes = [1000, 2345];
  for (const [i, size] of sizes.entries()) {
    expect(sent(await bucketUpload(t, project.bucketKey, [{ name: `f${i}.bin`, type: 'application/octet-stream', content: Buffer.alloc(size, i) }])).statusCode).toBe(200);
  }
  // K end users signed in: three sign-ups, one of them signs in again and refreshes (still three).
  const users = [];
  for (let i = 0; i < 3; i++) users.push(await signUpEndUser(t, project, { ip: `10.13.1.${i + 1}` }));
  statuses.push(200, 200, 200);
  expect(sent(await keyCall(t.app, project.authKey, '/auth/v1/signin', 'POST', { email: users[0].email, password: users[0].password })).statusCode).toBe(200);
  expect(sent(await keyCall(t.app, project.authKey, '/auth/v1/refresh', 'POST', { refresh_token: users[1].refreshToken })).statusCode).toBe(200);
  expect(sent(await keyCall(t.app, project.authKey, '/auth/v1/signin', 'POST', { email: users[2].email, password: 'wrong password!' })).statusCode).toBe(401);
  // A key that is no project's names no project: not counted anywhere.
  expect((await keyCall(t.app, 'not-a-key', '/storage/v1/objects')).statusCode).toBe(401);
  await flush();

  const after = await report();
  const expected = classesOf(statuses);
  expect(expected).toEqual({ s2xx: 3 + 2 + 3 + 2, s3xx: 0, s4xx: 3, s5xx: 0 });
  // Plus one console call that named the project: the owner's first read of its report.
  const withRead = { ...expected, s2xx: expected.s2xx + 1 };
  expect(minus(after.totals.requests, before.totals.requests)).toEqual(withRead);
  expect(after.totals.storage_bytes - before.totals.storage_bytes).toBe(1000 + 2345);
  expect(after.totals.active_users_month).toBe(3);
  expect(after.active_users.reduce((n: number, p: { users: number }) => n + p.users, 0)).toBe(3);
  // The series add up to the totals.
  const summed = after.series.reduce((c: Classes, p: { requests: Classes }) => ({
    s2xx: c.s2xx + p.requests.s2xx, s3xx: c.s3xx + p.requests.s3xx, s4xx: c.s4xx + p.requests.s4xx, s5xx: c.s5xx + p.requests.s5xx,
  }), { s2xx: 0, s3xx: 0, s4xx: 0, s5xx: 0 });
  expect(summed).toEqual(after.totals.requests);
  expect(after.totals.requests_per_second).toBeGreaterThan(0);

  // The project's own report: the same calls.
  const afterProject = await report({}, project.id);
  expect(minus(afterProject.totals.requests, beforeProject.totals.requests)).toEqual(withRead);
  expect(afterProject.totals.storage_bytes).toBe(after.totals.storage_bytes);
  expect(afterProject.totals.active_users_month).toBe(3);
});

test('the ranges: hourly buckets for a week, daily for 30 days and 3 months; limits of the plan', async () => {
  const week = await report();
  expect(week).toMatchObject({ range: '7d', bucket: 'hour' });
  expect(week.series).toHaveLength(168);
  expect(week.limits).toEqual({ plan: 'hobby', label: 'Hobby', database_bytes: 1024 ** 3, storage_bytes: 5 * 1024 ** 3, monthly_active_users: 100_000 });
  const month = await report({ range: '30d' });
  expect(month).toMatchObject({ range: '30d', bucket: 'day' });
  expect(month.series).toHaveLength(30);
  expect(month.active_users).toHaveLength(30);
  const quarter = await report({ range: '3m' });
  expect(quarter.series).toHaveLength(90);
  // Wider ranges hold the narrower ones' calls.
  expect(quarter.totals.requests.s2xx).toBeGreaterThanOrEqual(week.totals.requests.s2xx);
  expect(quarter.totals.requests.s2xx).toBeGreaterThan(0);
  for (const r of [week, month, quarter]) {
    const starts = r.series.map((p: { start: string }) => Date.parse(p.start));
    expect(starts).toEqual([...starts].sort((x, y) => x - y));
    expect(new Set(starts).size).toBe(starts.length);
  }
});

test('the database size is the project database once it has tables', async () => {
  const before = await report({}, project.id);
  const made = await t.post(`/project/${project.id}/database/create_table`, { name: 'notes', columns: [{ name: 'body', type: 'text' }] }, dev.token);
  expect(made.statusCode).toBe(200);
  const after = await report({}, project.id);
  expect(after.totals.database_bytes).toBeGreaterThan(before.totals.database_bytes);
  expect((await report()).totals.database_bytes).toBe(after.totals.database_bytes);
});

test('a bad range or body is a 400 with a message', async () => {
  for (const body of [{ range: '1y' }, { range: 7 }, { range: '' }, { from: 'yesterday' }]) {
    for (const projectId of [undefined, project.id]) {
      const res = await usage(dev.token, body, projectId);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
      expect(res.body).not.toContain('totals');
    }
  }
  const text = await t.app.inject({ method: 'POST', url: '/api/usage', headers: { authorization: `Bearer ${dev.token}`, 'content-type': 'text/plain' }, payload: 'range=7d' });
  expect(text.statusCode).toBe(415);
});

test("another account's token sees no figures of the project, and its calls naming it count nowhere", async () => {
  await flush();
  const before = await report({}, project.id);
  const theirs = await usage(other.token, {}, project.id);
  expect(theirs.statusCode).toBe(404);
  expect(theirs.body).not.toContain('totals');
  for (const op of ['bucket-details', 'usage', 'object-storage/files']) expect((await t.post(`/project/${project.id}/${op}`, {}, other.token)).statusCode).toBe(404);
  await flush();
  const after = await report({}, project.id);
  // Only the owner's first read (a console call naming the project) was added.
  expect(minus(after.totals.requests, before.totals.requests)).toEqual({ s2xx: 1, s3xx: 0, s4xx: 0, s5xx: 0 });
  // Their own account: none of the owner's figures.
  const own = (await usage(other.token)).json();
  expect(own.totals).toMatchObject({ requests: { s2xx: 0, s3xx: 0, s4xx: 0, s5xx: 0 }, storage_bytes: 0, active_users_month: 0, database_bytes: 0, bandwidth_bytes: 0 });
  // No token, a bad one, an unknown project.
  expect((await t.post('/usage', {})).statusCode).toBe(401);
  expect((await t.post('/usage', {}, 'not-a-token')).statusCode).toBe(401);
  expect((await usage(dev.token, {}, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  expect((await usage(dev.token, {}, 'not-a-uuid')).statusCode).toBe(404);
});

test('two instances on one database add up', async () => {
  second = await secondInstance(t, 3);
  b = second.app;
  await flush(t.app, b);
  const before = await report();
  await Promise.all([
    ...Array.from({ length: 4 }, () => keyCall(t.app, project.bucketKey, '/storage/v1/objects')),
    ...Array.from({ length: 5 }, () => keyCall(b, project.bucketKey, '/storage/v1/objects')),
    ...Array.from({ length: 2 }, () => keyCall(b, project.bucketKey, '/storage/v1/objects/00000000-0000-4000-8000-000000000000')),
  ]);
  // Both flush at once: the same (project, minute) row from two instances.
  await flush(t.app, b);
  const after = await report();
  expect(minus(after.totals.requests, before.totals.requests)).toEqual({ s2xx: 9, s3xx: 0, s4xx: 2, s5xx: 0 });
});

test('counts still held in memory are written when the instance closes', async () => {
  const before = await report();
  await keyCall(b, project.bucketKey, '/storage/v1/objects');
  await new Promise((resolve) => setImmediate(resolve));
  await b.close();
  const after = await report();
  expect(after.totals.requests.s2xx - before.totals.requests.s2xx).toBe(1);
});

test('retention folds minutes older than 8 days into their hour, sums unchanged, and drops what is older than 400 days', async () => {
  const fresh = await createProject(t, dev);
  const at = (daysAgo: number, minute: number) => `date_trunc('hour', now() - interval '${daysAgo} days', 'UTC') + interval '${minute} minutes'`;
  await t.database.query(
    `INSERT INTO usage_requests (project_id, minute, s2xx, s3xx, s4xx, s5xx) VALUES
       ($1, ${at(10, 0)}, 1, 0, 0, 0), ($1, ${at(10, 7)}, 2, 1, 0, 0), ($1, ${at(10, 59)}, 3, 0, 4, 1),
       ($1, ${at(3, 5)}, 5, 0, 0, 0), ($1, ${at(500, 5)}, 9, 0, 0, 0)`,
    [fresh.id],
  );
  const rows = () => t.database.query<{ n: number; s2: number; s3: number; s4: number; s5: number }>(
    'SELECT count(*)::int AS n, sum(s2xx)::int AS s2, sum(s3xx)::int AS s3, sum(s4xx)::int AS s4, sum(s5xx)::int AS s5 FROM usage_requests WHERE project_id = $1 AND minute BETWEEN now() - interval \'30 days\' AND now() - interval \'1 day\'',
    [fresh.id],
  );
  await flush();
  const before = (await report({ range: '30d' }, fresh.id)).totals.requests;
  expect((await rows())[0]).toEqual({ n: 4, s2: 11, s3: 1, s4: 4, s5: 1 });
  await Promise.all([applyRetention(t.database), applyRetention(t.database)]);
  // The three minutes of ten days ago are one hour row; the recent minute is kept as it was.
  expect((await rows())[0]).toEqual({ n: 2, s2: 11, s3: 1, s4: 4, s5: 1 });
  await flush();
  const after = (await report({ range: '30d' }, fresh.id)).totals.requests;
  expect(minus(after, before)).toEqual({ s2xx: 1, s3xx: 0, s4xx: 0, s5xx: 0 }); // the first read itself
  const [old] = await t.database.query<{ n: number }>("SELECT count(*)::int AS n FROM usage_requests WHERE project_id = $1 AND minute < now() - interval '400 days'", [fresh.id]);
  expect(old.n).toBe(0);
});
