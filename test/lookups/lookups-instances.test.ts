// The lookups each instance keeps in memory (platform/lookup-cache.ts) against two instances on one
// database, as two servers behind a load balancer: a change made through one instance, or by any
// statement at all, takes effect on the other at once, not after a time.
import type { FastifyInstance } from 'fastify';
import { buildTestApp, secondInstance, type TestApp } from '../helpers/app';
import { createProject, registerDeveloper, signUpEndUser, type Developer, type Project, onPlan } from '../helpers/factories';

jest.setTimeout(30_000);

let t: TestApp;
let a: FastifyInstance;
let b: FastifyInstance;
let second: Awaited<ReturnType<typeof secondInstance>>;
let dev: Developer;
beforeAll(async () => {
  t = await buildTestApp();
  a = t.app;
  second = await secondInstance(t);
  b = second.app;
  dev = await registerDeveloper(t);
  await onPlan(t, dev, 'enterprise'); // more projects than Hobby's 3: this file is not about plan limits
});
afterAll(async () => {
  await second.close();
  await t.close();
});

/** GET /api/auth/v1/user on an instance: the key and the token checked, the user read. */
async function whoAmI(app: FastifyInstance, authKey: string, accessToken: string) {
  return app.inject({ method: 'GET', url: '/api/auth/v1/user', headers: { 'x-api-key': authKey, authorization: `Bearer ${accessToken}` } });
}

/** Both instances have served the key and the user: what they keep is warm. */
async function warm(project: Project, accessToken: string) {
  for (const app of [a, b]) for (let i = 0; i < 2; i++) expect((await whoAmI(app, project.authKey, accessToken)).statusCode).toBe(200);
  expect(a.deps.lookups.size).toBeGreaterThan(0);
  expect(b.deps.lookups.size).toBeGreaterThan(0);
}

test('a key rotated through A stops on B at once; the new key works on both', async () => {
  const project = await createProject(t, dev);
  const user = await signUpEndUser(t, project);
  await warm(project, user.accessToken);
  const rotated = await a.inject({ method: 'POST', url: `/api/project/${project.id}/rotate-key`, headers: { authorization: `Bearer ${dev.token}` }, payload: { key: 'authentication' } });
  expect(rotated.statusCode).toBe(200);
  const fresh = rotated.json().api_key as string;
  expect((await whoAmI(b, project.authKey, user.accessToken)).statusCode).toBe(401);
  expect((await whoAmI(a, project.authKey, user.accessToken)).statusCode).toBe(401);
  for (const app of [a, b]) expect((await whoAmI(app, fresh, user.accessToken)).statusCode).toBe(200);
});

test('a project deleted through B: its key stops on A at once', async () => {
  const project = await createProject(t, dev);
  const user = await signUpEndUser(t, project);
  await warm(project, user.accessToken);
  const deleted = await b.inject({ method: 'POST', url: `/api/project/${project.id}/delete`, headers: { authorization: `Bearer ${dev.token}` }, payload: { confirm: project.subdomain } });
  expect(deleted.statusCode).toBe(200);
  expect((await whoAmI(a, project.authKey, user.accessToken)).statusCode).toBe(401);
});

test('an end user removed through A: their token stops on B at once', async () => {
  const project = await createProject(t, dev);
  const user = await signUpEndUser(t, project);
  const other = await signUpEndUser(t, project);
  await warm(project, user.accessToken);
  await warm(project, other.accessToken);
  const removed = await a.inject({ method: 'POST', url: `/api/project/${project.id}/auth/delete_user`, headers: { authorization: `Bearer ${dev.token}` }, payload: { user_id: user.id } });
  expect([200, 204]).toContain(removed.statusCode);
  expect((await whoAmI(b, project.authKey, user.accessToken)).statusCode).toBe(401);
  // Only that user's entry went.
  expect((await whoAmI(b, project.authKey, other.accessToken)).statusCode).toBe(200);
});

test('any statement counts: a token version bumped and a key revoked in SQL are heard by both', async () => {
  const project = await createProject(t, dev);
  const user = await signUpEndUser(t, project);
  await warm(project, user.accessToken);
  await t.database.query('UPDATE end_users SET token_version = token_version + 1 WHERE id = $1', [user.id]);
  // The statement came from neither instance: each waits for the notices sent before now.
  await Promise.all([a.deps.lookups.barrier(), b.deps.lookups.barrier()]);
  for (const app of [a, b]) expect((await whoAmI(app, project.authKey, user.accessToken)).statusCode).toBe(401);

  const again = await signUpEndUser(t, project);
  await warm(project, again.accessToken);
  await t.database.query("UPDATE project_keys SET revoked_at = now() WHERE project_id = $1 AND kind = 'authentication'", [project.id]);
  await Promise.all([a.deps.lookups.barrier(), b.deps.lookups.barrier()]);
  for (const app of [a, b]) expect((await whoAmI(app, project.authKey, again.accessToken)).statusCode).toBe(401);
});

test('a rolled-back change is not heard: what is kept stays', async () => {
  const project = await createProject(t, dev);
  const user = await signUpEndUser(t, project);
  await warm(project, user.accessToken);
  const before = b.deps.lookups.size;
  await expect(
    t.database.transaction(async (tx) => {
      await tx.query("UPDATE project_keys SET revoked_at = now() WHERE project_id = $1 AND kind = 'authentication'", [project.id]);
      throw new Error('changed my mind');
    }),
  ).rejects.toThrow('changed my mind');
  await b.deps.lookups.barrier();
  expect(b.deps.lookups.size).toBe(before);
  expect((await whoAmI(b, project.authKey, user.accessToken)).statusCode).toBe(200);
});

test('a barrier waits for every instance that is up, and one that stays silent is named and stops nobody for long', async () => {
  // B confirms A's barrier: it is in platform_instances and answers.
  const [row] = await t.database.query<{ n: string }>('SELECT count(*) AS n FROM platform_instances WHERE id = ANY($1)', [[a.deps.lookups.instanceId, b.deps.lookups.instanceId]]);
  expect(Number(row.n)).toBe(2);
  await a.deps.lookups.barrier();

  // An instance that shows itself but never answers (hung): A waits for it, then drops what it kept.
  const project = await createProject(t, dev);
  const user = await signUpEndUser(t, project);
  await warm(project, user.accessToken);
  await t.database.query("INSERT INTO platform_instances (id) VALUES ('silent-instance')");
  try {
    const warn = jest.spyOn(a.log, 'warn');
    await a.deps.lookups.barrier();
    expect(a.deps.lookups.size).toBe(0);
    expect(warn).toHaveBeenCalledWith({ silent: ['silent-instance'] }, expect.stringContaining('did not confirm'));
    warn.mockRestore();
  } finally {
    await t.database.query("DELETE FROM platform_instances WHERE id = 'silent-instance'");
  }
});
