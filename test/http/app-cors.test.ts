// One CORS policy for every app-facing API (http/app-cors.ts): end-user auth, storage, database
// rows and the live-changes stream. Project A lists ORIGIN_A, project B lists ORIGIN_B: a page on
// ORIGIN_A reads answers made with A's key (errors included) and nothing made with B's key.
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, multipart, registerDeveloper, signUpEndUser, type EndUser, type Project } from '../helpers/factories';
import { makeTable } from '../database/tables';
import { baseUrl, subscribe } from '../database/changes-helpers';

jest.setTimeout(60_000);

const ORIGIN_A = 'https://app-a.example.com';
const ORIGIN_B = 'https://app-b.example.com';
const EVIL = 'https://evil.example.com';

let t: TestApp;
let a: Project;
let b: Project;
let userA: EndUser;
let userB: EndUser;
beforeAll(async () => {
  // A small upload limit, so a 413 is cheap to provoke.
  t = await buildTestApp({ MAX_UPLOAD_BYTES: '1000' });
  const dev = await registerDeveloper(t);
  a = await createProject(t, dev);
  b = await createProject(t, dev);
  for (const [p, origin] of [[a, ORIGIN_A], [b, ORIGIN_B]] as const) {
    const res = await t.post(`/project/${p.id}/auth/settings`, { allowed_origins: [origin] }, dev.token);
    expect(res.statusCode).toBe(200);
    await makeTable(t, p, 'notes', 'id int PRIMARY KEY, body text', 'signed_in');
  }
  userA = await signUpEndUser(t, a);
  userB = await signUpEndUser(t, b);
});
afterAll(() => t.close());

type Call = { method: 'GET' | 'POST' | 'DELETE' | 'HEAD'; url: string; headers?: Record<string, string>; payload?: string | Buffer | object };
const send = (call: Call, origin?: string): Promise<LightMyRequestResponse> =>
  t.app.inject({ method: call.method, url: call.url, headers: { ...call.headers, ...(origin ? { origin } : {}) }, ...(call.payload === undefined ? {} : { payload: call.payload }) });

const key = (p: Project, kind: 'bucketKey' | 'authKey') => ({ 'x-api-key': p[kind] });
const bearer = (u: EndUser) => ({ authorization: `Bearer ${u.accessToken}` });
const projectKey = (p: Project, kind: 'bucketKey' | 'authKey') => ({ 'x-hostbase-key': p[kind] });
const userToken = (u: EndUser) => ({ 'x-hostbase-user-token': u.accessToken });
async function signedLink(p: Project): Promise<{ link_id: string; url: string }> {
  const res = await send({ method: 'POST', url: `/api/storage/v1/objects/${await uploaded(p)}/signed-links`, headers: projectKey(p, 'bucketKey'), payload: { expires_in: 60 } });
  expect(res.statusCode).toBe(200);
  return res.json().link;
}
const signedUrl = async (p: Project) => new URL((await signedLink(p)).url).pathname;
function uploadCall(p: Project, size = 5): Call {
  const { body, contentType } = multipart([{ name: 'cat.txt', type: 'text/plain', content: Buffer.alloc(size, 'm') }]);
  return { method: 'POST', url: '/api/storage/v1/objects', headers: { ...key(p, 'bucketKey'), 'content-type': contentType }, payload: body };
}
async function uploaded(p: Project): Promise<string> {
  const res = await send(uploadCall(p));
  expect(res.statusCode).toBe(200);
  return res.json().file.object_id as string;
}

/** The same call made with project A's credentials and with project B's: [status A expects, call for A, call for B]. */
type Case = [name: string, status: number, forA: () => Promise<Call>, forB: () => Promise<Call>];
const both = (name: string, status: number, call: (p: Project, u: EndUser) => Call | Promise<Call>): Case => [name, status, async () => call(a, userA), async () => call(b, userB)];

const cases: Case[] = [
  // ---------------------------------------------------------------- auth
  both('auth: sign in', 200, (p, u) => ({ method: 'POST', url: '/api/auth/v1/signin', headers: key(p, 'authKey'), payload: { email: u.email, password: u.password } })),
  both('auth: current user', 200, (p, u) => ({ method: 'GET', url: '/api/auth/v1/user', headers: { ...key(p, 'authKey'), ...bearer(u) } })),
  both('auth: a bad token is a 401', 401, (p) => ({ method: 'GET', url: '/api/auth/v1/user', headers: { ...key(p, 'authKey'), authorization: 'Bearer not.a.token' } })),
  // ---------------------------------------------------------------- storage
  both('storage: list', 200, (p) => ({ method: 'GET', url: '/api/storage/v1/objects', headers: key(p, 'bucketKey') })),
  both('storage: upload', 200, (p) => uploadCall(p)),
  both('storage: an upload over the limit is a 413', 413, (p) => uploadCall(p, 1001)),
  both('storage: download', 200, async (p) => ({ method: 'GET', url: `/api/storage/v1/objects/${await uploaded(p)}`, headers: key(p, 'bucketKey') })),
  both('storage: download a range', 206, async (p) => ({ method: 'GET', url: `/api/storage/v1/objects/${await uploaded(p)}`, headers: { ...key(p, 'bucketKey'), range: 'bytes=0-1' } })),
  both('storage: download a missing file is a 404', 404, (p) => ({ method: 'GET', url: '/api/storage/v1/objects/no-such-file', headers: key(p, 'bucketKey') })),
  both('storage: delete', 200, async (p) => ({ method: 'DELETE', url: `/api/storage/v1/objects/${await uploaded(p)}`, headers: key(p, 'bucketKey') })),
  // ---------------------------------------------------------------- database rows
  both('db: select', 200, (p, u) => ({ method: 'POST', url: '/api/db/v1/notes/select', headers: { ...key(p, 'authKey'), ...bearer(u) }, payload: {} })),
  both('db: insert', 200, (p, u) => ({ method: 'POST', url: '/api/db/v1/notes/insert', headers: { ...key(p, 'authKey'), ...bearer(u) }, payload: { rows: [{ id: Math.floor(Math.random() * 1e9), body: 'hi' }] } })),
  both('db: an insert without a signed-in user is a 403', 403, (p) => ({ method: 'POST', url: '/api/db/v1/notes/insert', headers: key(p, 'authKey'), payload: { rows: [{ id: 1 }] } })),
  both('db: a missing table is a 404', 404, (p, u) => ({ method: 'POST', url: '/api/db/v1/nope/select', headers: { ...key(p, 'authKey'), ...bearer(u) }, payload: {} })),
  both('changes: the stream\'s head', 200, (p, u) => ({ method: 'HEAD', url: '/api/db/v1/notes/changes', headers: { ...key(p, 'authKey'), ...bearer(u) } })),
  // ---------------------------------------------------------------- the new headers (X-Hostbase-Key, X-Hostbase-User-Token)
  both('auth (new headers): current user', 200, (p, u) => ({ method: 'GET', url: '/api/auth/v1/user', headers: { 'x-hostbase-key': p.authKey, ...userToken(u) } })),
  both('storage (secret key in X-Hostbase-Key): list', 200, (p) => ({ method: 'GET', url: '/api/storage/v1/objects', headers: projectKey(p, 'bucketKey') })),
  both('storage (publishable key): a folder without a rule refuses uploads, 403', 403, (p, u) => {
    const { body, contentType } = multipart([{ name: 'x.txt', content: 'x' }]);
    return { method: 'POST', url: '/api/storage/v1/objects', headers: { ...projectKey(p, 'authKey'), ...userToken(u), 'content-type': contentType }, payload: body };
  }),
  both('storage: create a signed link', 200, async (p) => ({ method: 'POST', url: `/api/storage/v1/objects/${await uploaded(p)}/signed-links`, headers: projectKey(p, 'bucketKey'), payload: { expires_in: 60 } })),
  both('storage: download through a signed link (no key)', 200, async (p) => ({ method: 'GET', url: await signedUrl(p) })),
  both('storage: revoke a signed link', 200, async (p) => ({ method: 'DELETE', url: `/api/storage/v1/signed-links/${(await signedLink(p)).link_id}`, headers: projectKey(p, 'bucketKey') })),
  both('db (new headers): select', 200, (p, u) => ({ method: 'POST', url: '/api/db/v1/notes/select', headers: { ...projectKey(p, 'authKey'), ...userToken(u) }, payload: {} })),
];

describe.each(cases)('%s', (_name, status, forA, forB) => {
  test('an allowed origin gets the grant, with Vary: Origin and no credentials', async () => {
    const res = await send(await forA(), ORIGIN_A);
    expect(res.statusCode).toBe(status);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN_A);
    expect(res.headers['access-control-expose-headers']).toMatch(/content-range/);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(res.headers.vary)).toMatch(/\bOrigin\b/);
  });

  test('an origin the project does not list gets none', async () => {
    for (const origin of [EVIL, 'https://app-a.example.com.evil.com', 'http://app-a.example.com', 'null']) {
      const res = await send(await forA(), origin);
      expect({ origin, status: res.statusCode }).toEqual({ origin, status });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(String(res.headers.vary)).toMatch(/\bOrigin\b/);
    }
  });

  test("project A's origin with project B's key gets none (B's own origin does)", async () => {
    const res = await send(await forB(), ORIGIN_A);
    expect(res.statusCode).toBe(status);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect((await send(await forB(), ORIGIN_B)).headers['access-control-allow-origin']).toBe(ORIGIN_B);
  });

  test('a call without Origin (server to server) gets no CORS headers', async () => {
    const res = await send(await forA());
    expect(res.statusCode).toBe(status);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('preflights', () => {
  const preflight = (url: string, origin: string, method = 'POST') =>
    t.app.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'x-api-key, authorization, content-type, range' } });
  const paths: [string, string][] = [
    ['/api/auth/v1/signin', 'POST'],
    ['/api/auth/v1/user', 'GET'],
    ['/api/storage/v1/objects', 'POST'],
    ['/api/storage/v1/objects/some-id', 'DELETE'],
    ['/api/db/v1/notes/select', 'POST'],
    ['/api/db/v1/notes/changes', 'GET'],
    ['/api/storage/v1/objects/some-id/signed-links', 'POST'],
    ['/api/storage/v1/signed-links/some-id', 'DELETE'],
    ['/api/storage/v1/signed/some-token', 'GET'],
  ];

  test('the new key and token headers are allowed', async () => {
    const res = await preflight('/api/storage/v1/objects', ORIGIN_A, 'GET');
    expect(String(res.headers['access-control-allow-headers']).split(', ')).toEqual(expect.arrayContaining(['x-hostbase-key', 'x-hostbase-user-token']));
  });

  test.each(paths)('%s: an origin some project lists gets the allowance', async (url, method) => {
    for (const origin of [ORIGIN_A, ORIGIN_B]) {
      const res = await preflight(url, origin, method);
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(String(res.headers['access-control-allow-methods']).split(', ')).toEqual(expect.arrayContaining(['GET', 'POST', 'DELETE']));
      expect(String(res.headers['access-control-allow-headers']).split(', ')).toEqual(expect.arrayContaining(['x-api-key', 'authorization', 'content-type', 'range']));
      expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(String(res.headers.vary)).toMatch(/\bOrigin\b/);
    }
  });

  test.each(paths)('%s: any other origin gets a bare 204', async (url, method) => {
    for (const origin of [EVIL, 'https://app-a.example.com.evil.com', 'http://app-a.example.com', 'null']) {
      const res = await preflight(url, origin, method);
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-methods']).toBeUndefined();
      expect(res.headers['access-control-allow-headers']).toBeUndefined();
      expect(String(res.headers.vary)).toMatch(/\bOrigin\b/);
    }
  });

  test('console routes get no preflight route and no CORS headers', async () => {
    const res = await preflight(`/api/project/${a.id}/object-storage/files`, ORIGIN_A);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const list = await t.post(`/project/${a.id}/auth/users_list`, {}, a.dev.token, { origin: ORIGIN_A });
    expect(list.statusCode).toBe(200);
    expect(list.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('answers that concern no project', () => {
  test('a missing or unknown key is readable by an origin some project lists, by no other', async () => {
    const keys: Record<string, string>[] = [{}, { 'x-api-key': 'not-a-key' }, { 'x-api-key': a.authKey }];
    for (const headers of keys) {
      // (A's authentication key is not a bucket key: unknown to storage.)
      const res = await send({ method: 'GET', url: '/api/storage/v1/objects', headers }, ORIGIN_A);
      expect(res.statusCode).toBe(401);
      expect(res.headers['access-control-allow-origin']).toBe(ORIGIN_A);
      expect(res.json().message).toEqual(expect.any(String));
      expect((await send({ method: 'GET', url: '/api/storage/v1/objects', headers }, EVIL)).headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  test('an unknown path under an app API is a readable 404; a method the path does not take a readable 405', async () => {
    const missing = await send({ method: 'GET', url: '/api/storage/v1/nothing-here', headers: key(a, 'bucketKey') }, ORIGIN_A);
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['access-control-allow-origin']).toBe(ORIGIN_A);
    const wrong = await t.app.inject({ method: 'PUT', url: '/api/storage/v1/objects', headers: { ...key(a, 'bucketKey'), origin: ORIGIN_A } });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers['access-control-allow-origin']).toBe(ORIGIN_A);
    expect(wrong.headers.allow).toMatch(/OPTIONS/);
  });
});

describe('headers an app reads', () => {
  test('a download exposes its name, tag and range', async () => {
    const id = await uploaded(a);
    const res = await send({ method: 'GET', url: `/api/storage/v1/objects/${id}`, headers: { ...key(a, 'bucketKey'), range: 'bytes=1-2' } }, ORIGIN_A);
    expect(res.statusCode).toBe(206);
    const exposed = String(res.headers['access-control-expose-headers']).split(', ');
    for (const name of ['content-disposition', 'content-range', 'etag']) {
      expect(res.headers[name]).toBeDefined();
      expect(exposed).toContain(name);
    }
  });

  test('a compressed answer varies on both Origin and Accept-Encoding', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({ id: 100_000 + i, body: 'x'.repeat(40) }));
    const insert = await send({ method: 'POST', url: '/api/db/v1/notes/insert', headers: { ...key(a, 'authKey'), ...bearer(userA) }, payload: { rows } });
    expect(insert.statusCode).toBe(200);
    const res = await send({ method: 'POST', url: '/api/db/v1/notes/select', headers: { ...key(a, 'authKey'), ...bearer(userA), 'accept-encoding': 'gzip' }, payload: {} }, ORIGIN_A);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN_A);
    const vary = String(res.headers.vary).split(',').map((v) => v.trim().toLowerCase());
    expect(vary).toEqual(expect.arrayContaining(['origin', 'accept-encoding']));
  });
});

describe('the live-changes stream over a real socket', () => {
  test('an allowed origin reads the open stream and its errors; another project\'s key or origin gets none', async () => {
    const base = await baseUrl(t.app);
    const open = (p: Project, u: EndUser, origin: string, table = 'notes') => subscribe(base, table, { ...key(p, 'authKey'), ...bearer(u), origin });

    const ok = await open(a, userA, ORIGIN_A);
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(ok.headers['access-control-allow-origin']).toBe(ORIGIN_A);
    expect(String(ok.headers.vary)).toMatch(/\bOrigin\b/);
    ok.close();

    const missing = await open(a, userA, ORIGIN_A, 'nope');
    expect(missing.status).toBe(404);
    expect(missing.headers['access-control-allow-origin']).toBe(ORIGIN_A);

    for (const [p, u, origin] of [[b, userB, ORIGIN_A], [a, userA, EVIL]] as const) {
      const denied = await open(p, u, origin);
      expect(denied.status).toBe(200);
      expect(denied.headers['access-control-allow-origin']).toBeUndefined();
      denied.close();
    }
  });
});
