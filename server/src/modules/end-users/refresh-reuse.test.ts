// Refresh-token rotation and reuse detection, on the real repository and database: a rotated token
// presented again revokes its whole family (the thief's and the user's sessions), once, with a
// warning; unknown tokens and other projects' ids revoke nothing.
import { buildTestApp, type TestApp } from '../../../../test/helpers/app';
import { createProject, signUpEndUser, type Project } from '../../../../test/helpers/factories';
import type { ProjectRow } from '../projects/projects.tables';
import { EndUsersRepository } from './end-users.repository';
import { EndUsersService, type EndUsersServiceDeps } from './end-users.service';

let t: TestApp;
let p: Project;
let project: ProjectRow;
const warn = jest.fn();
let service: EndUsersService;
beforeAll(async () => {
  t = await buildTestApp();
  p = await createProject(t);
  project = { id: p.id } as ProjectRow;
  // refresh() and signOut() need only the repository, the clock, token signing and the log.
  service = new EndUsersService({
    repo: new EndUsersRepository(t.database.db),
    clock: { now: () => new Date() },
    tokens: { ttlSeconds: 60, sign: (c) => `access-for-${c.sub}`, verify: async () => undefined },
    log: { warn },
  } as Partial<EndUsersServiceDeps> as EndUsersServiceDeps);
});
afterAll(() => t.close());
beforeEach(() => warn.mockReset());

const INVALID = { statusCode: 401 };

test('rotation: each refresh answers a new token and the used one stops working', async () => {
  const u = await signUpEndUser(t, p);
  const first = await service.refresh(project, u.refreshToken);
  expect(first).toMatchObject({ access_token: `access-for-${u.id}`, refresh_token: expect.any(String), user: { id: u.id } });
  expect(first.refresh_token).not.toBe(u.refreshToken);
  const second = await service.refresh(project, first.refresh_token);
  expect(second.refresh_token).not.toBe(first.refresh_token);
  expect(warn).not.toHaveBeenCalled();
});

test('reuse of a rotated token revokes the whole family, with one warning', async () => {
  const u = await signUpEndUser(t, p);
  const next = await service.refresh(project, u.refreshToken);
  await expect(service.refresh(project, u.refreshToken)).rejects.toMatchObject(INVALID);
  expect(warn).toHaveBeenCalledTimes(1);
  expect(warn.mock.calls[0][1]).toMatch(/reused/);
  // The legitimate holder's newer token is gone too.
  await expect(service.refresh(project, next.refresh_token)).rejects.toMatchObject(INVALID);
  // A second replay finds the family already revoked: refused, no second warning.
  await expect(service.refresh(project, u.refreshToken)).rejects.toMatchObject(INVALID);
  expect(warn).toHaveBeenCalledTimes(1);
});

test('reuse revokes only that family: the same user\'s other session keeps working', async () => {
  const u = await signUpEndUser(t, p);
  const signIn = await t.app.inject({ method: 'POST', url: '/api/auth/v1/signin', headers: { 'x-api-key': p.authKey }, payload: { email: u.email, password: u.password, device_token: u.deviceToken } });
  expect(signIn.statusCode).toBe(200);
  const other = signIn.json().refresh_token as string;
  await service.refresh(project, u.refreshToken);
  await expect(service.refresh(project, u.refreshToken)).rejects.toMatchObject(INVALID);
  await expect(service.refresh(project, other)).resolves.toMatchObject({ user: { id: u.id } });
});

test('an unknown token, or a token presented for another project, is refused and revokes nothing', async () => {
  const u = await signUpEndUser(t, p);
  await expect(service.refresh(project, 'not-a-refresh-token')).rejects.toMatchObject(INVALID);
  await expect(service.refresh({ id: (await createProject(t)).id } as ProjectRow, u.refreshToken)).rejects.toMatchObject(INVALID);
  expect(warn).not.toHaveBeenCalled();
  await expect(service.refresh(project, u.refreshToken)).resolves.toMatchObject({ user: { id: u.id } });
});

test('sign-out revokes the family; its tokens are then refused without a reuse warning', async () => {
  const u = await signUpEndUser(t, p);
  const next = await service.refresh(project, u.refreshToken);
  await service.signOut(project, next.refresh_token);
  await expect(service.refresh(project, next.refresh_token)).rejects.toMatchObject(INVALID);
  await expect(service.refresh(project, u.refreshToken)).rejects.toMatchObject(INVALID);
  expect(warn).not.toHaveBeenCalled();
});
