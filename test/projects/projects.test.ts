// Every projects endpoint through the real app: listing, subdomain checks, creation (and its
// alias, and under concurrency), details, keys and their rotation, and deletion with its files.
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, registerDeveloper, shareFile, upload, type Developer, type Project, onPlan } from '../helpers/factories';
import { scenarios } from '../helpers/scenarios';
import { rowCount, storedFiles } from '../storage/helpers';

// Set-up registers developers (scrypt) and opens a database; generous under a loaded machine.
jest.setTimeout(30_000);

let t: TestApp;
let dev: Developer;
let other: Developer;
beforeAll(async () => {
  t = await buildTestApp({ PLATFORM_DOMAIN: 'hostbase.test' });
  dev = await registerDeveloper(t);
  await onPlan(t, dev, 'enterprise'); // more projects than Hobby's 3: this file is not about plan limits
  other = await registerDeveloper(t);
  await onPlan(t, other, 'enterprise'); // more projects than Hobby's 3: this file is not about plan limits
});
afterAll(() => t.close());

let n = 0;
const unique = (base = 'app') => `${base}-${process.pid}-${++n}`;
const NO_PROJECT = '00000000-0000-0000-0000-000000000000';

describe('listProjects', () => {
  it('lists the caller\'s projects newest first, and no one else\'s', async () => {
    const me = await registerDeveloper(t);
    expect((await t.post('/projects', undefined, me.token)).json()).toEqual([]);
    const first = await createProject(t, me, unique('first'));
    const second = await createProject(t, me, unique('second'));
    await createProject(t, other, unique('theirs'));
    const res = await t.post('/projects', undefined, me.token);
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.map((p: { id: string }) => p.id)).toEqual([second.id, first.id]);
    expect(list[0]).toEqual({
      id: second.id,
      project_id: second.id,
      project_name: `Project ${second.subdomain}`,
      description: null,
      subdomain: second.subdomain,
      primary_domain: `${second.subdomain}.hostbase.test`,
      site_url: `http://${second.subdomain}.hostbase.test:3000`, // PUBLIC_URL's scheme and port
      created_at: expect.any(String),
    });
  });

  it('needs a valid token', async () => {
    expect((await t.post('/projects')).statusCode).toBe(401);
    expect((await t.post('/projects', undefined, 'not-a-token')).statusCode).toBe(401);
  });
});

describe('checkSubdomain', () => {
  const check = (subdomain: unknown, token = dev.token) => t.post('/check_subdomain', { subdomain }, token);

  it('answers available for a free, valid name', async () => {
    expect((await check(unique('free'))).json()).toEqual({ available: true, message: 'Subdomain is available' });
  });

  it('answers taken for an existing subdomain in any case', async () => {
    const sub = unique('taken');
    await createProject(t, dev, sub);
    for (const variant of [sub, sub.toUpperCase(), ` ${sub.replace('t', 'T')} `]) {
      expect((await check(variant)).json()).toEqual({ available: false, reason: 'taken', message: 'Subdomain is already taken' });
    }
  });

  it.each(['ab', '-abc', 'abc-', 'a_b_c', 'has space', 'dots.in.it', 'x'.repeat(64), '', 'ünï'])('answers invalid for %j', async (sub) => {
    const res = await check(sub);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ available: false, reason: 'invalid' });
  });

  it.each(['www', 'API', 'Admin', 'console', 'mail', 'storage', 'smtp', 'docs', 'status'])('answers reserved for %j', async (sub) => {
    expect((await check(sub)).json()).toMatchObject({ available: false, reason: 'reserved' });
  });

  it('refuses a body without subdomain (400) and no token (401)', async () => {
    const res = await t.post('/check_subdomain', {}, dev.token);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/subdomain/);
    expect((await t.post('/check_subdomain', { subdomain: 'abc' })).statusCode).toBe(401);
  });
});

describe('createProject', () => {
  it.each([['/create-project'], ['/create_project']])('creates a project at %s and answers "project created"', async (path) => {
    const sub = unique('Made');
    const res = await t.post(path, { projectName: '  My app ', subdomain: sub, description: 'notes' }, dev.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'project created',
      project: { project_name: 'My app', subdomain: sub.toLowerCase(), primary_domain: `${sub.toLowerCase()}.hostbase.test`, description: 'notes' },
    });
    expect((await t.post('/check_subdomain', { subdomain: sub }, other.token)).json().available).toBe(false);
  });

  it('refuses a taken subdomain (409, any case), a reserved one (409) and an invalid one (400)', async () => {
    const sub = unique('dupe');
    await createProject(t, dev, sub);
    const dupe = await t.post('/create-project', { projectName: 'x', subdomain: sub.toUpperCase() }, other.token);
    expect(dupe.statusCode).toBe(409);
    expect(dupe.json().message).toBe('Subdomain is already taken');
    expect((await t.post('/create-project', { projectName: 'x', subdomain: 'www' }, dev.token)).statusCode).toBe(409);
    const bad = await t.post('/create-project', { projectName: 'x', subdomain: 'a_b' }, dev.token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/subdomain/);
  });

  it.each([
    [{ subdomain: 'abcdef' }, /projectName/],
    [{ projectName: 'x' }, /subdomain/],
    [{ projectName: '   ', subdomain: 'blank-name-1' }, /projectName/],
    [{ projectName: 'x'.repeat(101), subdomain: 'long-name-1' }, /projectName/],
  ])('refuses %j with 400 and creates nothing', async (body, message) => {
    const before = (await t.post('/projects', undefined, dev.token)).json().length;
    const res = await t.post('/create-project', body, dev.token);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
    expect((await t.post('/projects', undefined, dev.token)).json().length).toBe(before);
  });

  it('lets exactly one of 5 concurrent creates of one subdomain win', async () => {
    const sub = unique('race');
    const devs = [dev, other, ...(await Promise.all([1, 2, 3].map(() => registerDeveloper(t))))];
    const results = await Promise.all(devs.map((d, i) => t.post('/create-project', { projectName: `racer ${i}`, subdomain: i % 2 ? sub.toUpperCase() : sub }, d.token)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    const rows = await t.database.query<{ n: string }>('SELECT count(*) AS n FROM projects WHERE subdomain = $1', [sub]);
    expect(Number(rows[0]!.n)).toBe(1);
  });

  it('needs a token', async () => {
    expect((await t.post('/create-project', { projectName: 'x', subdomain: unique() })).statusCode).toBe(401);
  });
});

describe('getProjectDetails', () => {
  it('answers domain and user_id to the owner', async () => {
    const p = await createProject(t, dev, unique('details'));
    const res = await t.post('/project/project-details/', { project_id: p.id }, dev.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: p.id, domain: `${p.subdomain}.hostbase.test`, user_id: dev.id, subdomain: p.subdomain });
  });
});

describe('keys', () => {
  it('getBucketDetails answers the bucket domain, id and key to the owner only', async () => {
    const p = await createProject(t, dev, unique('bucket'));
    const res = await t.post(`/project/${p.id}/bucket-details`, undefined, dev.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ domain: 'http://localhost:3000', bucketId: expect.stringMatching(/^bkt_[0-9a-f]{16}$/), api_key: expect.stringMatching(/^hb_secret_.{43,}$/) });
    // Stable across reads: the console shows the same key again.
    expect((await t.post(`/project/${p.id}/bucket-details`, undefined, dev.token)).json()).toEqual(res.json());
  });

  it('getAuthenticationDetails answers the authentication key to the owner only', async () => {
    const p = await createProject(t, dev, unique('auth'));
    const res = await t.post(`/project/${p.id}/authentication-details`, undefined, dev.token);
    expect(res.json()).toEqual({ api_key: expect.stringMatching(/^hb_publishable_.{43,}$/) });
    expect(res.json().api_key).not.toBe(p.bucketKey);
  });

  it('rotateProjectKey issues a new bucket key and the old one stops working', async () => {
    const p = await createProject(t, dev, unique('rotate'));
    const list = (key: string) => t.app.inject({ method: 'GET', url: '/api/storage/v1/objects', headers: { 'x-api-key': key } });
    expect((await list(p.bucketKey)).statusCode).toBe(200);
    const res = await t.post(`/project/${p.id}/rotate-key`, { key: 'bucket' }, dev.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'key rotated', api_key: expect.stringMatching(/^hb_secret_/) });
    expect((await list(p.bucketKey)).statusCode).toBe(401);
    expect((await list(res.json().api_key)).statusCode).toBe(200);
    expect((await t.post(`/project/${p.id}/bucket-details`, undefined, dev.token)).json().api_key).toBe(res.json().api_key);
  });

  it('rotateProjectKey issues a new authentication key and the old one stops working', async () => {
    const p = await createProject(t, dev, unique('rotauth'));
    const old = (await t.post(`/project/${p.id}/authentication-details`, undefined, dev.token)).json().api_key;
    const res = await t.post(`/project/${p.id}/rotate-key`, { key: 'authentication' }, dev.token);
    const fresh = res.json().api_key;
    expect(fresh).toMatch(/^hb_publishable_/);
    expect(fresh).not.toBe(old);
    // Any authKey call will do: the key is checked before the body is.
    const signin = (key: string) => t.post('/auth/v1/signin', { email: 'nobody@example.com', password: 'x' }, undefined, { 'x-api-key': key });
    expect((await signin(old)).statusCode).toBe(401);
    expect((await signin(old)).json().message).toBe('Invalid API key');
    expect((await signin(fresh)).json().message).not.toBe('Invalid API key');
  });
});

describe('deleteProject', () => {
  it('removes the project, its files (bytes and rows) and its keys with the right confirmation', async () => {
    const p = await createProject(t, dev, unique('doomed'));
    const keep = await createProject(t, dev, unique('kept'));
    const file = (await upload(t, dev.token, p.id, [{ name: 'a.txt', content: 'doomed' }])).json().file;
    await upload(t, dev.token, p.id, [{ name: 'b.txt', content: 'doomed too' }]);
    const kept = (await upload(t, dev.token, keep.id, [{ name: 'k.txt', content: 'kept' }])).json().file;
    const [fileLink, keptLink] = [await shareFile(t, dev.token, p.id, file.object_id), await shareFile(t, dev.token, keep.id, kept.object_id)];
    const ownFiles = () => storedFiles(t).filter((f) => f.includes(p.id));
    expect(ownFiles().length).toBeGreaterThan(0);

    const res = await t.post(`/project/${p.id}/delete`, { confirm: p.subdomain.toUpperCase() }, dev.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'deleted' });

    expect((await t.post('/projects', undefined, dev.token)).json().map((x: { id: string }) => x.id)).not.toContain(p.id);
    expect((await t.post('/project/project-details/', { project_id: p.id }, dev.token)).statusCode).toBe(404);
    expect(ownFiles()).toEqual([]);
    expect(await rowCount(t, p.id)).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: fileLink })).statusCode).toBe(404);
    const keyCall = await t.app.inject({ method: 'GET', url: '/api/storage/v1/objects', headers: { 'x-api-key': p.bucketKey } });
    expect(keyCall.statusCode).toBe(401);
    // The subdomain is free again; the other project is untouched.
    expect((await t.post('/check_subdomain', { subdomain: p.subdomain }, dev.token)).json().available).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: keptLink })).body).toBe('kept');
  });
});

// Another account's token, unknown ids and bad input: one row per request, each on a fresh project
// of `dev`; refused requests change nothing (the `after` hooks check the project and its key).
describe('refusals (scenarios)', () => {
  type C = { p: Project };
  const setup = async (): Promise<C> => ({ p: await createProject(t, dev, unique('refuse')) });
  const stillThere = async (_t: TestApp, c: C) => {
    expect((await t.post('/project/project-details/', { project_id: c.p.id }, dev.token)).statusCode).toBe(200);
    expect((await t.post(`/project/${c.p.id}/bucket-details`, undefined, dev.token)).json().api_key).toBe(c.p.bucketKey);
  };
  scenarios<C>(() => t, [
    { name: 'getProjectDetails: another account gets 404 without the subdomain', setup, url: '/api/project/project-details/', token: () => other.token, body: (c: C) => ({ project_id: c.p.id }), status: 404, notContains: (c) => [c.p.subdomain] },
    { name: 'getProjectDetails: a malformed id is 404', setup, url: '/api/project/project-details/', token: () => dev.token, body: { project_id: 'junk' }, status: 404 },
    { name: 'getProjectDetails: no project_id is 400', setup, url: '/api/project/project-details/', token: () => dev.token, body: {}, status: 400 },
    { name: 'getBucketDetails: another account gets 404', setup, url: (c) => `/api/project/${c.p.id}/bucket-details`, token: () => other.token, status: 404, notContains: ['hb_secret_'] },
    { name: 'getBucketDetails: an unknown project is 404', url: `/api/project/${NO_PROJECT}/bucket-details`, token: () => dev.token, status: 404 },
    { name: 'getAuthenticationDetails: another account gets 404 without the key', setup, url: (c) => `/api/project/${c.p.id}/authentication-details`, token: () => other.token, status: 404, notContains: ['hb_publishable_'] },
    { name: 'rotateProjectKey: another account gets 404, the key stays', setup, url: (c) => `/api/project/${c.p.id}/rotate-key`, token: () => other.token, body: { key: 'bucket' }, status: 404, after: stillThere },
    { name: 'rotateProjectKey: an unknown kind is 400, the key stays', setup, url: (c) => `/api/project/${c.p.id}/rotate-key`, token: () => dev.token, body: { key: 'root' }, status: 400, after: stillThere },
    { name: 'deleteProject: a wrong confirmation is 400 and keeps the project', setup, url: (c) => `/api/project/${c.p.id}/delete`, token: () => dev.token, body: { confirm: 'something-else' }, status: 400, json: { message: expect.stringMatching(/confirm/) }, after: stillThere },
    { name: 'deleteProject: no confirmation is 400 and keeps the project', setup, url: (c) => `/api/project/${c.p.id}/delete`, token: () => dev.token, body: {}, status: 400, after: stillThere },
    { name: 'deleteProject: another account gets 404 and the project stays', setup, url: (c) => `/api/project/${c.p.id}/delete`, token: () => other.token, body: (c: C) => ({ confirm: c.p.subdomain }), status: 404, after: stillThere },
  ]);
});
