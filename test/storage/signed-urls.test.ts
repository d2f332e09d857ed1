// Signed URLs through the real app: made for the caller who asked (an end user, the publishable
// key alone, the developer), served without a key, and checked against the current state at each
// download: they expire, and stop at once when the folder's rule no longer allows the caller, the
// end user is removed or changes password, or the file is deleted. A changed token is refused
// with the same 404 as no file. Also the batch and console variants, the configured maximum,
// another instance, signed links made by apps (checked the same way), and bad input.
import { buildTestApp, registerDeveloper, secondInstance, type Developer, type TestApp } from '../helpers/app';
import { createProject, multipart, signUpEndUser, type EndUser, type Project } from '../helpers/factories';

jest.setTimeout(60_000);

/** The app's clock, moved by tests (signed URLs expire by it). */
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };

let t: TestApp;
let p: Project;
let ann: EndUser;
let bob: EndUser;
let stranger: Developer;
let keys: { publishable: string; secret: string };

type Creds = { key: string; token?: string };
const headersOf = (c: Creds): Record<string, string> => ({ 'x-hostbase-key': c.key, ...(c.token ? { 'x-hostbase-user-token': c.token } : {}) });
const annC = () => ({ key: keys.publishable, token: ann.accessToken });
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

async function appUpload(c: Creds, folder: string, name: string, content: string): Promise<string> {
  const { body, contentType } = multipart([{ field: 'folder', value: folder }, { name, content }]);
  const res = await t.app.inject({ method: 'POST', url: '/api/storage/v1/objects', headers: { ...headersOf(c), 'content-type': contentType }, payload: body });
  expect(res.statusCode).toBe(200);
  return res.json().file.object_id;
}
const sign = (c: Creds, id: string, body?: unknown) =>
  t.app.inject({ method: 'POST', url: `/api/storage/v1/object/sign/${id}`, headers: headersOf(c), ...(body === undefined ? {} : { payload: body as object }) });
const signMany = (c: Creds, body: unknown) => t.app.inject({ method: 'POST', url: '/api/storage/v1/object/sign', headers: headersOf(c), payload: body as object });
const consoleSign = (body: unknown, token = p.dev.token) => t.post(`/project/${p.id}/object-storage/sign`, body, token);
const setRule = (folder: string, access: string) => t.post(`/project/${p.id}/object-storage/rules/set`, { folder, access }, p.dev.token);
async function urlFor(c: Creds, id: string, body?: unknown): Promise<string> {
  const res = await sign(c, id, body);
  expect(res.statusCode).toBe(200);
  return pathOf(res.json().signed_url.url);
}
/** What an id that names nothing answers: every refusal but expiry must look exactly like it. */
let noSuchFile: unknown;

beforeAll(async () => {
  t = await buildTestApp({}, { clock });
  p = await createProject(t);
  const k = (await t.post(`/project/${p.id}/api-keys`, {}, p.dev.token)).json();
  keys = { publishable: k.publishable_key, secret: k.secret_key };
  ann = await signUpEndUser(t, p);
  bob = await signUpEndUser(t, p);
  stranger = await registerDeveloper(t);
  for (const [folder, access] of [['docs', 'signed_in'], ['avatars', 'owner'], ['pub', 'read']]) expect((await setRule(folder, access)).statusCode).toBe(200);
  const none = await get(`/api/storage/v1/object/sign/00000000-0000-0000-0000-000000000000?token=1.k.${'A'.repeat(43)}`);
  expect(none.statusCode).toBe(404);
  noSuchFile = none.json();
  expect(noSuchFile).toEqual({ message: 'File not found', code: 'NOT_FOUND' });
});
afterAll(() => t.close());
afterEach(() => {
  clock.offsetMs = 0;
});

describe('createSignedUrl', () => {
  it('serves the file without a key, for an hour unless asked otherwise', async () => {
    const id = await appUpload(annC(), 'docs', 'plan.txt', 'PLAN');
    const before = Math.floor(Date.now() / 1000);
    const res = await sign(annC(), id);
    expect(res.statusCode).toBe(200);
    const made = res.json();
    expect(made).toEqual({ message: 'created', signed_url: { object_id: id, url: expect.stringMatching(/^http:\/\/localhost:3000\/api\/storage\/v1\/object\/sign\//), expires_at: expect.any(String) } });
    const expires = new Date(made.signed_url.expires_at).getTime() / 1000;
    expect(expires - before).toBeGreaterThanOrEqual(3600);
    expect(expires - before).toBeLessThanOrEqual(3602);
    const got = await get(pathOf(made.signed_url.url));
    expect(got.statusCode).toBe(200);
    expect(got.body).toBe('PLAN');
    expect(got.headers['content-security-policy']).toMatch(/^sandbox/);
    expect(got.headers['cache-control']).toContain('private');
    expect((await get(pathOf(made.signed_url.url) + '&download=1')).headers['content-disposition']).toMatch(/^attachment/);
    expect((await get(pathOf(made.signed_url.url), { range: 'bytes=1-2' })).body).toBe('LA');
  });

  it('expires: a genuine URL past its time is a 403 that says so', async () => {
    const id = await appUpload(annC(), 'docs', 'soon.txt', 'SOON');
    const url = await urlFor(annC(), id, { expires_in: 60 });
    expect((await get(url)).statusCode).toBe(200);
    clock.offsetMs = 61_000;
    const late = await get(url);
    expect(late.statusCode).toBe(403);
    expect(late.json().message).toBe('This signed URL has expired');
  });

  it('stops at once when the folder rule no longer lets the caller read, and works again when it does', async () => {
    expect((await setRule('team', 'signed_in')).statusCode).toBe(200);
    const id = await appUpload(annC(), 'team', 'team.txt', 'TEAM');
    const url = await urlFor(annC(), id);
    expect((await get(url)).statusCode).toBe(200);
    expect((await setRule('team', 'none')).statusCode).toBe(200);
    const refused = await get(url);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual(noSuchFile);
    expect((await setRule('team', 'signed_in')).statusCode).toBe(200);
    expect((await get(url)).statusCode).toBe(200);
    // Removing the rule leaves no rule: no app access.
    expect((await t.post(`/project/${p.id}/object-storage/rules/delete`, { folder: 'team' }, p.dev.token)).statusCode).toBe(200);
    expect((await get(url)).statusCode).toBe(404);
  });

  it("the publishable key's URL follows the read rule; an end user's follows theirs", async () => {
    const id = await appUpload({ key: keys.secret }, 'pub', 'terms.txt', 'TERMS');
    const byKey = await urlFor({ key: keys.publishable }, id);
    const byUser = await urlFor(annC(), id);
    expect((await get(byKey)).body).toBe('TERMS');
    expect((await setRule('pub', 'signed_in')).statusCode).toBe(200);
    expect((await get(byKey)).statusCode).toBe(404);
    expect((await get(byUser)).body).toBe('TERMS');
    expect((await setRule('pub', 'read')).statusCode).toBe(200);
  });

  it('stops at once when the end user it was made for is removed, or their password changes', async () => {
    const carol = await signUpEndUser(t, p);
    const id = await appUpload({ key: keys.publishable, token: carol.accessToken }, 'docs', 'carol.txt', 'CAROL');
    const url = await urlFor({ key: keys.publishable, token: carol.accessToken }, id);
    expect((await get(url)).statusCode).toBe(200);
    const del = await t.post(`/project/${p.id}/auth/delete_user`, { user_id: carol.id }, p.dev.token);
    expect(del.statusCode).toBe(200);
    const refused = await get(url);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual(noSuchFile);
    // The file stays (owned by nobody); a URL the key alone can't read is gone with its user.
    expect((await get(`/api/storage/v1/objects/${id}`, headersOf({ key: keys.secret }))).body).toBe('CAROL');

    const dave = await signUpEndUser(t, p);
    const daveUrl = await urlFor({ key: keys.publishable, token: dave.accessToken }, id);
    expect((await get(daveUrl)).statusCode).toBe(200);
    // A password change (reset) moves the user's token version: their sessions and URLs end.
    await t.database.query('UPDATE end_users SET token_version = token_version + 1 WHERE id = $1', [dave.id]);
    await t.app.deps.lookups.barrier(); // a write from outside the platform: wait until it is heard
    expect((await get(daveUrl)).statusCode).toBe(404);
  });

  it('stops when the file is deleted', async () => {
    const id = await appUpload(annC(), 'docs', 'gone.txt', 'GONE');
    const url = await urlFor(annC(), id);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/storage/v1/objects/${id}`, headers: headersOf(annC()) })).statusCode).toBe(200);
    const res = await get(url);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(noSuchFile);
  });

  it('a changed token is refused like a file that does not exist', async () => {
    const id = await appUpload(annC(), 'docs', 'secret.txt', 'SECRET');
    const other = await appUpload(annC(), 'docs', 'other.txt', 'OTHER');
    const url = await urlFor(annC(), id);
    const [path, query] = url.split('?token=');
    const [exp, who, sig] = query!.split('.');
    const flip = (c: string) => (c === 'A' ? 'B' : 'A');
    const tampered = [
      `${path}?token=${exp}.${who}.${flip(sig![0]!)}${sig!.slice(1)}`, // the signature
      `${path}?token=${exp}.${who}.${sig!.slice(0, -1)}${flip(sig!.slice(-1))}`, // its last character
      `${path}?token=${Number(exp) + 3600}.${who}.${sig}`, // a later expiry
      `${path}?token=${exp}.d.${sig}`, // the developer's identity
      `${path}?token=${exp}.k.${sig}`, // the key alone
      `${path}?token=${exp}.${bob.id}.${sig}`, // another end user
      `${path.replace(id, other)}?token=${query}`, // another file
    ];
    for (const u of tampered) {
      const res = await get(u);
      expect({ u, status: res.statusCode, body: res.json() }).toEqual({ u, status: 404, body: noSuchFile });
    }
    // Malformed tokens are a 400 about the token, naming no file.
    for (const bad of ['', 'x', `${exp}.${who}`, `${exp}.${who}.${sig}.x`, `${exp}.nobody.${sig}`, 'a%00b']) {
      const res = await get(`${path}?token=${bad}`);
      expect(res.statusCode).toBe(400);
      expect(res.body).not.toContain('secret.txt');
    }
    expect((await get(path!)).statusCode).toBe(400);
    expect((await get(url)).body).toBe('SECRET');
  });

  it("only what the caller may read: another end user's owner-only file, another project's key, a developer account: 404", async () => {
    const id = await appUpload(annC(), 'avatars', 'ann.png', 'ANN');
    expect((await sign({ key: keys.publishable, token: bob.accessToken }, id)).statusCode).toBe(404);
    expect((await sign({ key: keys.publishable }, id)).statusCode).toBe(404);
    const theirs = await createProject(t, stranger);
    expect((await sign({ key: theirs.bucketKey }, id)).statusCode).toBe(404);
    expect((await sign({ key: theirs.authKey }, id)).statusCode).toBe(404);
    // No key at all, or a developer's token instead of one.
    expect((await t.app.inject({ method: 'POST', url: `/api/storage/v1/object/sign/${id}`, headers: { authorization: `Bearer ${p.dev.token}` } })).statusCode).toBe(401);
    // Ann may; the secret key alone may sign anything (its URL follows no rule).
    expect((await get(await urlFor(annC(), id))).body).toBe('ANN');
    const root = await appUpload({ key: keys.secret }, '', 'root.txt', 'ROOT');
    const devUrl = await urlFor({ key: keys.secret }, root);
    expect(devUrl).toContain('.d.');
    expect((await get(devUrl)).body).toBe('ROOT');
  });

  it.each([0, -1, 1.5, '60', null, 86_401, 604_801, 1e12])('expires_in %p: 400 naming it', async (expires_in) => {
    const id = await appUpload(annC(), 'docs', 'e.txt', 'E');
    const res = await sign(annC(), id, { expires_in });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('expires_in');
  });

  it('a path id that is no uuid, too long or has a NUL is a 4xx, never a 500', async () => {
    expect((await sign(annC(), 'not-a-uuid')).statusCode).toBe(404);
    expect((await sign(annC(), 'x'.repeat(65))).statusCode).toBe(400);
    expect((await sign(annC(), 'a%00b')).statusCode).toBe(400);
    // An undeclared property is dropped before any check (the contract's objects are open), so its
    // NUL is never stored nor refused: the call goes on to the lookup.
    expect((await sign(annC(), '00000000-0000-0000-0000-000000000000', { expires_in: 60, note: 'a\u0000b' })).statusCode).toBe(404);
  });
});

describe('createSignedUrls (batch)', () => {
  it('answers each id in order: a URL for what the caller may read, "File not found" for the rest', async () => {
    const a = await appUpload(annC(), 'docs', 'a.txt', 'A');
    const b = await appUpload(annC(), 'avatars', 'b.png', 'B');
    const bobs = await appUpload({ key: keys.publishable, token: bob.accessToken }, 'avatars', 'bob.png', 'BOB');
    const ids = [a, bobs, '00000000-0000-0000-0000-000000000000', 'junk', b, a];
    const res = await signMany(annC(), { object_ids: ids, expires_in: 600 });
    expect(res.statusCode).toBe(200);
    const out = res.json().signed_urls as { object_id: string; url: string | null; expires_at: string | null; error?: string }[];
    expect(out.map((o) => o.object_id)).toEqual(ids);
    expect(out.map((o) => o.url !== null)).toEqual([true, false, false, false, true, true]);
    expect(out[1]).toEqual({ object_id: bobs, url: null, expires_at: null, error: 'File not found' });
    expect((await get(pathOf(out[0]!.url!))).body).toBe('A');
    expect((await get(pathOf(out[4]!.url!))).body).toBe('B');
    // Another project's key learns nothing about these files.
    const theirs = await createProject(t, stranger);
    const foreign = (await signMany({ key: theirs.bucketKey }, { object_ids: [a, b] })).json().signed_urls;
    expect(foreign.every((o: { url: unknown }) => o.url === null)).toBe(true);
  });

  it.each([
    [{}, 'object_ids'],
    [{ object_ids: [] }, 'object_ids'],
    [{ object_ids: Array.from({ length: 101 }, () => '00000000-0000-0000-0000-000000000000') }, 'object_ids'],
    [{ object_ids: ['x'.repeat(65)] }, 'object_ids'],
    [{ object_ids: ['a\u0000b'] }, ''],
    [{ object_ids: 'abc' }, 'object_ids'],
    [{ object_ids: ['00000000-0000-0000-0000-000000000000'], expires_in: 86_401 }, 'STORAGE_SIGNED_URL_MAX_SECONDS'],
  ])('bad input %#: 400', async (body, word) => {
    const res = await signMany(annC(), body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(word);
  });
});

describe('createConsoleSignedUrl', () => {
  it("lets the console preview any of the project's files; another account or project gets 404", async () => {
    const id = await appUpload({ key: keys.secret }, 'nowhere', 'private.txt', 'PRIVATE');
    const res = await consoleSign({ object_id: id, expires_in: 600 });
    expect(res.statusCode).toBe(200);
    expect(res.json().signed_url).toMatchObject({ object_id: id });
    const url = pathOf(res.json().signed_url.url);
    expect((await get(url)).body).toBe('PRIVATE');
    expect((await consoleSign({ object_id: id }, stranger.token)).statusCode).toBe(404);
    const theirs = await createProject(t, stranger);
    expect((await t.post(`/project/${theirs.id}/object-storage/sign`, { object_id: id }, stranger.token)).statusCode).toBe(404);
    expect((await consoleSign({ object_id: '00000000-0000-0000-0000-000000000000' })).statusCode).toBe(404);
    expect((await t.post(`/project/${p.id}/object-storage/delete`, { file_ids: [id] }, p.dev.token)).statusCode).toBe(200);
    expect((await get(url)).statusCode).toBe(404);
  });

  it.each([{}, { object_id: 'a\u0000b' }, { object_id: 'x'.repeat(65) }, { object_id: '00000000-0000-0000-0000-000000000000', expires_in: 0 }])('bad input %#: 400', async (body) => {
    const res = await consoleSign(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/object_id|expires_in/);
  });
});

describe('the platform maximum and other instances', () => {
  it('STORAGE_SIGNED_URL_MAX_SECONDS bounds every URL, and shortens the default', async () => {
    const short = await buildTestApp({ STORAGE_SIGNED_URL_MAX_SECONDS: '120' });
    try {
      const q = await createProject(short);
      const { body, contentType } = multipart([{ name: 'x.txt', content: 'X' }]);
      const id = (await short.app.inject({ method: 'POST', url: '/api/storage/v1/objects', headers: { 'x-hostbase-key': q.bucketKey, 'content-type': contentType }, payload: body })).json().file.object_id;
      const signed = (b?: unknown) => short.app.inject({ method: 'POST', url: `/api/storage/v1/object/sign/${id}`, headers: { 'x-hostbase-key': q.bucketKey }, ...(b ? { payload: b as object } : {}) });
      const made = (await signed()).json().signed_url;
      expect(new Date(made.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(121_000);
      const over = await signed({ expires_in: 121 });
      expect(over.statusCode).toBe(400);
      expect(over.json().message).toBe('body/expires_in must be at most 120 seconds on this platform (STORAGE_SIGNED_URL_MAX_SECONDS)');
      // A URL signed by another platform (another secret) is refused here.
      expect((await get(pathOf(made.url))).statusCode).toBe(404);
    } finally {
      await short.close();
    }
  });

  it('a URL made on one instance is honoured, and refused after a rule change, on another at once', async () => {
    const second = await secondInstance(t);
    try {
      expect((await setRule('shared-team', 'signed_in')).statusCode).toBe(200);
      const id = await appUpload(annC(), 'shared-team', 'both.txt', 'BOTH');
      const url = await urlFor(annC(), id);
      expect((await second.app.inject({ method: 'GET', url })).body).toBe('BOTH');
      expect((await setRule('shared-team', 'none')).statusCode).toBe(200);
      expect((await second.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    } finally {
      await second.close();
    }
  });
});

describe('signed links made by apps follow the rules at each download too', () => {
  it('an end user link stops when the rule changes or the user is removed; a developer link follows no rule', async () => {
    const erin = await signUpEndUser(t, p);
    const erinC = { key: keys.publishable, token: erin.accessToken };
    expect((await setRule('links', 'signed_in')).statusCode).toBe(200);
    const id = await appUpload(erinC, 'links', 'l.txt', 'LINK');
    const link = async (c: Creds) => {
      const res = await t.app.inject({ method: 'POST', url: `/api/storage/v1/objects/${id}/signed-links`, headers: headersOf(c), payload: { expires_in: 3600 } });
      expect(res.statusCode).toBe(200);
      return pathOf(res.json().link.url);
    };
    const erinLink = await link(erinC);
    const devLink = await link({ key: keys.secret });
    expect((await get(erinLink)).body).toBe('LINK');
    expect((await setRule('links', 'none')).statusCode).toBe(200);
    expect((await get(erinLink)).statusCode).toBe(404);
    expect((await get(devLink)).body).toBe('LINK');
    expect((await setRule('links', 'signed_in')).statusCode).toBe(200);
    expect((await get(erinLink)).body).toBe('LINK');
    expect((await t.post(`/project/${p.id}/auth/delete_user`, { user_id: erin.id }, p.dev.token)).statusCode).toBe(200);
    expect((await get(erinLink)).statusCode).toBe(404);
    expect((await get(devLink)).body).toBe('LINK');
  });
});
