// File access rules and signed links through the real app: the publishable key under
// the folder rules, the secret key with full access, two end users of one project who can't reach
// each other's owner-only files by any endpoint, signed links that expire and are revoked, the
// deprecated headers, another account, and hostile input.
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, multipart, signUpEndUser, type EndUser, type Part, type Project } from '../helpers/factories';
import { registerDeveloper, type Developer } from '../helpers/app';

jest.setTimeout(60_000);

let t: TestApp;
let p: Project;
let keys: { publishable: string; secret: string };
let ann: EndUser;
let bob: EndUser;
let stranger: Developer;

type Creds = { key: string; token?: string };

const headersOf = (c: Creds): Record<string, string> => ({ 'x-hostbase-key': c.key, ...(c.token ? { 'x-hostbase-user-token': c.token } : {}) });

function appUpload(c: Creds, parts: Part[]) {
  const { body, contentType } = multipart(parts);
  return t.app.inject({ method: 'POST', url: '/api/storage/v1/objects', headers: { ...headersOf(c), 'content-type': contentType }, payload: body });
}
const list = (c: Creds, query = '') => t.app.inject({ method: 'GET', url: `/api/storage/v1/objects${query}`, headers: headersOf(c) });
const download = (c: Creds, id: string) => t.app.inject({ method: 'GET', url: `/api/storage/v1/objects/${id}`, headers: headersOf(c) });
const remove = (c: Creds, id: string) => t.app.inject({ method: 'DELETE', url: `/api/storage/v1/objects/${id}`, headers: headersOf(c) });
const sign = (c: Creds, id: string, expires_in: unknown = 60) =>
  t.app.inject({ method: 'POST', url: `/api/storage/v1/objects/${id}/signed-links`, headers: headersOf(c), payload: { expires_in } });
const revokeApp = (c: Creds, linkId: string) => t.app.inject({ method: 'DELETE', url: `/api/storage/v1/signed-links/${linkId}`, headers: headersOf(c) });
const setRule = (folder: string, access: string, token = p.dev.token) => t.post(`/project/${p.id}/object-storage/rules/set`, { folder, access }, token);
const ids = (res: { json(): { files: { object_id: string }[] } }) => res.json().files.map((f) => f.object_id);
const signedPath = (url: string) => new URL(url).pathname;

beforeAll(async () => {
  t = await buildTestApp();
  p = await createProject(t);
  const k = await t.post(`/project/${p.id}/api-keys`, {}, p.dev.token);
  expect(k.statusCode).toBe(200);
  keys = { publishable: k.json().publishable_key, secret: k.json().secret_key };
  ann = await signUpEndUser(t, p);
  bob = await signUpEndUser(t, p);
  stranger = await registerDeveloper(t);
  expect((await setRule('avatars', 'owner')).statusCode).toBe(200);
  expect((await setRule('public', 'read')).statusCode).toBe(200);
  expect((await setRule('team', 'signed_in')).statusCode).toBe(200);
});
afterAll(() => t.close());

describe('keys', () => {
  it('the publishable and secret keys are the authentication and bucket keys, with names that say which', async () => {
    expect(keys.publishable).toBe(p.authKey);
    expect(keys.secret).toBe(p.bucketKey);
    expect(keys.publishable).toMatch(/^hb_publishable_/);
    expect(keys.secret).toMatch(/^hb_secret_/);
  });

  it('another account gets 404 and no key', async () => {
    const res = await t.post(`/project/${p.id}/api-keys`, {}, stranger.token);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('hb_');
  });

  it('rotating the secret key by its new name stops the old one at once', async () => {
    const q = await createProject(t);
    const before = { key: q.bucketKey };
    expect((await list(before)).statusCode).toBe(200);
    const res = await t.post(`/project/${q.id}/rotate-key`, { key: 'secret' }, q.dev.token);
    expect(res.statusCode).toBe(200);
    expect((await list(before)).statusCode).toBe(401);
    expect((await list({ key: res.json().api_key })).statusCode).toBe(200);
    expect((await t.post(`/project/${q.id}/api-keys`, {}, q.dev.token)).json().secret_key).toBe(res.json().api_key);
  });

  it('a key minted before the new names (hb_auth_ / hb_bucket_) keeps working in both headers', async () => {
    const q = await createProject(t);
    const legacy = 'hb_auth_' + 'L'.repeat(43);
    const crypto = await import('node:crypto');
    await t.database.query(`UPDATE project_keys SET key_hash = $1 WHERE project_id = $2 AND kind = 'authentication' AND revoked_at IS NULL`, [
      crypto.createHash('sha256').update(legacy).digest('hex'),
      q.id,
    ]);
    const signin = (headers: Record<string, string>) => t.post('/auth/v1/signin', { email: 'nobody@example.com', password: 'wrong password' }, undefined, headers);
    expect((await signin({ 'x-api-key': legacy })).json().message).not.toBe('Invalid API key');
    expect((await signin({ 'x-hostbase-key': legacy })).json().message).not.toBe('Invalid API key');
    expect((await signin({ 'x-hostbase-key': 'hb_auth_' + 'M'.repeat(43) })).json().message).toBe('Invalid API key');
  });

  it('unknown, missing and mixed credentials are 401s that say what is wrong', async () => {
    expect((await list({ key: 'hb_secret_nope' })).json()).toMatchObject({ code: 'INVALID_API_KEY' });
    const none = await t.app.inject({ method: 'GET', url: '/api/storage/v1/objects' });
    expect(none.statusCode).toBe(401);
    expect(none.json().message).toContain('X-Hostbase-Key');
    // An old client's bad x-api-key is named as such, not as a missing X-Hostbase-Key.
    const oldBad = await t.app.inject({ method: 'GET', url: '/api/storage/v1/objects', headers: { 'x-api-key': 'hb_bucket_nope' } });
    expect(oldBad.json().message).toBe('Invalid API key');
    // A token that doesn't verify is never a silently anonymous call.
    const badToken = await list({ key: keys.publishable, token: 'not-a-token' });
    expect(badToken.statusCode).toBe(401);
    // Authorization: Bearer with the new key header: told where the token goes.
    const mixed = await t.app.inject({ method: 'GET', url: '/api/storage/v1/objects', headers: { 'x-hostbase-key': keys.publishable, authorization: `Bearer ${ann.accessToken}` } });
    expect(mixed.statusCode).toBe(401);
    expect(mixed.json().message).toContain('X-Hostbase-User-Token');
    // Another project's end user's token with this project's key.
    const q = await createProject(t);
    const other = await signUpEndUser(t, q);
    expect((await list({ key: keys.publishable, token: other.accessToken })).statusCode).toBe(401);
  });
});

describe('owner-only files: two end users of one project', () => {
  let annFile: string;
  let bobFile: string;

  beforeAll(async () => {
    const a = await appUpload({ key: keys.publishable, token: ann.accessToken }, [{ field: 'folder', value: 'avatars' }, { name: 'ann.png', type: 'image/png', content: 'ANN' }]);
    expect(a.statusCode).toBe(200);
    expect(a.json().file).toMatchObject({ folder: 'avatars', owner_id: ann.id });
    annFile = a.json().file.object_id;
    const b = await appUpload({ key: keys.publishable, token: bob.accessToken }, [{ field: 'folder', value: 'avatars' }, { name: 'bob.png', type: 'image/png', content: 'BOB' }]);
    expect(b.statusCode).toBe(200);
    bobFile = b.json().file.object_id;
  });

  it('each lists only their own, and the count says so', async () => {
    const annList = await list({ key: keys.publishable, token: ann.accessToken }, '?folder=avatars');
    expect(annList.statusCode).toBe(200);
    expect(ids(annList)).toEqual([annFile]);
    expect(annList.json().total).toBe(1);
    // The account's storage figures are not for a page's visitors.
    expect(annList.json()).not.toHaveProperty('usage_bytes');
    expect(ids(await list({ key: keys.publishable, token: bob.accessToken }))).not.toContain(annFile);
    // The key alone sees no owner-only file.
    expect(ids(await list({ key: keys.publishable }))).not.toEqual(expect.arrayContaining([annFile]));
  });

  it("the other's file is a 404 to download, delete and sign, and stays whole", async () => {
    const bobCreds = { key: keys.publishable, token: bob.accessToken };
    expect((await download(bobCreds, annFile)).statusCode).toBe(404);
    expect((await remove(bobCreds, annFile)).statusCode).toBe(404);
    expect((await sign(bobCreds, annFile)).statusCode).toBe(404);
    expect((await download({ key: keys.publishable }, annFile)).statusCode).toBe(404);
    expect((await remove({ key: keys.publishable }, annFile)).statusCode).toBe(404);
    // The deprecated header pair can't get around it either (x-api-key takes only the secret key on storage).
    const viaOld = await t.app.inject({ method: 'GET', url: `/api/storage/v1/objects/${annFile}`, headers: { 'x-api-key': keys.publishable, authorization: `Bearer ${bob.accessToken}` } });
    expect(viaOld.statusCode).toBe(401);
    const mine = await download({ key: keys.publishable, token: ann.accessToken }, annFile);
    expect(mine.statusCode).toBe(200);
    expect(mine.body).toBe('ANN');
  });

  it("a link Ann made can't be revoked by Bob", async () => {
    const link = (await sign({ key: keys.publishable, token: ann.accessToken }, annFile)).json().link;
    expect((await revokeApp({ key: keys.publishable, token: bob.accessToken }, link.link_id)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: signedPath(link.url) })).statusCode).toBe(200);
    expect((await revokeApp({ key: keys.publishable, token: ann.accessToken }, link.link_id)).statusCode).toBe(200);
  });

  it('each deletes only their own', async () => {
    expect((await remove({ key: keys.publishable, token: bob.accessToken }, bobFile)).statusCode).toBe(200);
    expect((await download({ key: keys.secret }, bobFile)).statusCode).toBe(404);
    expect((await download({ key: keys.secret }, annFile)).statusCode).toBe(200);
  });
});

describe('the rules for the publishable key', () => {
  it('no rule: no app access; the secret key may do everything', async () => {
    const refused = await appUpload({ key: keys.publishable, token: ann.accessToken }, [{ name: 'root.txt', content: 'r' }]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('no access');
    const byServer = await appUpload({ key: keys.secret }, [{ name: 'root.txt', content: 'r' }]);
    expect(byServer.statusCode).toBe(200);
    expect(byServer.json().file.owner_id).toBeNull();
    const id = byServer.json().file.object_id;
    expect((await download({ key: keys.publishable, token: ann.accessToken }, id)).statusCode).toBe(404);
    expect(ids(await list({ key: keys.secret }))).toContain(id);
    expect((await list({ key: keys.secret })).json()).toHaveProperty('usage_bytes');
    expect((await download({ key: keys.secret }, id)).body).toBe('r');
    expect((await remove({ key: keys.secret }, id)).statusCode).toBe(200);
  });

  it('read: anyone with the key may list and download, nobody may upload or delete', async () => {
    const up = await appUpload({ key: keys.secret }, [{ field: 'folder', value: 'public/docs' }, { name: 'terms.txt', content: 'terms' }]);
    const id = up.json().file.object_id;
    expect(ids(await list({ key: keys.publishable }, '?folder=public'))).toEqual([id]);
    expect((await download({ key: keys.publishable }, id)).body).toBe('terms');
    const del = await remove({ key: keys.publishable, token: ann.accessToken }, id);
    expect(del.statusCode).toBe(403);
    expect(del.json().message).toContain('"read"');
    expect((await appUpload({ key: keys.publishable, token: ann.accessToken }, [{ field: 'folder', value: 'public' }, { name: 'x.txt', content: 'x' }])).statusCode).toBe(403);
  });

  it('signed_in: the key alone gets nothing; any signed-in end user may do everything', async () => {
    expect((await appUpload({ key: keys.publishable }, [{ field: 'folder', value: 'team' }, { name: 'x.txt', content: 'x' }])).json().message).toContain('X-Hostbase-User-Token');
    const up = await appUpload({ key: keys.publishable, token: ann.accessToken }, [{ field: 'folder', value: 'team' }, { name: 'plan.txt', content: 'plan' }]);
    expect(up.statusCode).toBe(200);
    const id = up.json().file.object_id;
    expect(ids(await list({ key: keys.publishable }, '?folder=team'))).toEqual([]);
    expect(ids(await list({ key: keys.publishable, token: bob.accessToken }, '?folder=team'))).toEqual([id]);
    expect((await remove({ key: keys.publishable, token: bob.accessToken }, id)).statusCode).toBe(200);
  });

  it('a rule changed in the console is in force for the next call', async () => {
    const up = await appUpload({ key: keys.secret }, [{ field: 'folder', value: 'later' }, { name: 'l.txt', content: 'l' }]);
    const id = up.json().file.object_id;
    expect((await download({ key: keys.publishable }, id)).statusCode).toBe(404);
    expect((await setRule('later', 'read')).statusCode).toBe(200);
    expect((await download({ key: keys.publishable }, id)).statusCode).toBe(200);
    expect((await t.post(`/project/${p.id}/object-storage/rules/delete`, { folder: 'later' }, p.dev.token)).statusCode).toBe(200);
    expect((await download({ key: keys.publishable }, id)).statusCode).toBe(404);
    const rules = (await t.post(`/project/${p.id}/object-storage/rules`, {}, p.dev.token)).json().rules;
    expect(rules.map((r: { folder: string; access: string }) => `${r.folder}:${r.access}`)).toEqual(['avatars:owner', 'public:read', 'team:signed_in']);
  });

  it('a secret key sent with an end user token acts as that end user', async () => {
    const up = await appUpload({ key: keys.secret, token: ann.accessToken }, [{ field: 'folder', value: 'avatars' }, { name: 'a2.png', content: 'A2' }]);
    expect(up.json().file.owner_id).toBe(ann.id);
    expect((await download({ key: keys.secret, token: bob.accessToken }, up.json().file.object_id)).statusCode).toBe(404);
  });
});

describe('signed links', () => {
  let file: string;
  beforeAll(async () => {
    file = (await appUpload({ key: keys.publishable, token: ann.accessToken }, [{ field: 'folder', value: 'avatars' }, { name: 'private.png', type: 'image/png', content: 'PRIVATE' }])).json().file.object_id;
  });

  it('serve the file without a key, count downloads, and stop when revoked (403 saying so)', async () => {
    const made = await sign({ key: keys.publishable, token: ann.accessToken }, file, 3600);
    expect(made.statusCode).toBe(200);
    const link = made.json().link;
    expect(link).toMatchObject({ object_id: file, download_count: 0, revoked_at: null });
    const got = await t.app.inject({ method: 'GET', url: signedPath(link.url) });
    expect(got.statusCode).toBe(200);
    expect(got.body).toBe('PRIVATE');
    expect(got.headers['content-security-policy']).toMatch(/^sandbox/);
    await t.app.inject({ method: 'GET', url: signedPath(link.url), headers: { range: 'bytes=0-1' } });
    const listed = (await t.post(`/project/${p.id}/object-storage/signed-links`, { object_id: file }, p.dev.token)).json().links;
    expect(listed).toEqual([expect.objectContaining({ link_id: link.link_id, download_count: 2, name: 'private.png' })]);
    expect(JSON.stringify(listed)).not.toContain(signedPath(link.url).split('/').pop());

    expect((await t.post(`/project/${p.id}/object-storage/signed-links/revoke`, { link_id: link.link_id }, p.dev.token)).statusCode).toBe(200);
    const gone = await t.app.inject({ method: 'GET', url: signedPath(link.url) });
    expect(gone.statusCode).toBe(403);
    expect(gone.json().message).toBe('This signed link was revoked');
    // Revoked twice: still fine; another account: 404.
    expect((await t.post(`/project/${p.id}/object-storage/signed-links/revoke`, { link_id: link.link_id }, p.dev.token)).statusCode).toBe(200);
    expect((await t.post(`/project/${p.id}/object-storage/signed-links/revoke`, { link_id: link.link_id }, stranger.token)).statusCode).toBe(404);
  });

  it('an expired link is a 403 saying so, and is not counted', async () => {
    const link = (await t.post(`/project/${p.id}/object-storage/signed-links/create`, { object_id: file, expires_in: 600 }, p.dev.token)).json().link;
    expect((await t.app.inject({ method: 'GET', url: signedPath(link.url) })).statusCode).toBe(200);
    await t.database.query(`UPDATE storage_signed_links SET expires_at = now() - interval '1 second' WHERE id = $1`, [link.link_id]);
    const res = await t.app.inject({ method: 'GET', url: signedPath(link.url) });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('This signed link has expired');
    const [row] = await t.database.query<{ download_count: string }>('SELECT download_count FROM storage_signed_links WHERE id = $1', [link.link_id]);
    expect(Number(row!.download_count)).toBe(1);
  });

  it('an unknown link and the link of a deleted file are 404s', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/storage/v1/signed/hbs_' + 'x'.repeat(43) })).statusCode).toBe(404);
    const up = await appUpload({ key: keys.secret }, [{ name: 'brief.txt', content: 'b' }]);
    const link = (await sign({ key: keys.secret }, up.json().file.object_id)).json().link;
    expect((await remove({ key: keys.secret }, up.json().file.object_id)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: signedPath(link.url) })).statusCode).toBe(404);
  });

  it('another account can neither list, create nor revoke links of the project', async () => {
    expect((await t.post(`/project/${p.id}/object-storage/signed-links`, {}, stranger.token)).statusCode).toBe(404);
    expect((await t.post(`/project/${p.id}/object-storage/signed-links/create`, { object_id: file, expires_in: 60 }, stranger.token)).statusCode).toBe(404);
    expect((await t.post(`/project/${p.id}/object-storage/rules`, {}, stranger.token)).statusCode).toBe(404);
    expect((await setRule('avatars', 'read', stranger.token)).statusCode).toBe(404);
    expect((await t.post(`/project/${p.id}/object-storage/rules`, {}, p.dev.token)).json().rules).toContainEqual(expect.objectContaining({ folder: 'avatars', access: 'owner' }));
    // Their own project's key can't reach this project's file either.
    const theirs = await createProject(t, stranger);
    expect((await sign({ key: theirs.bucketKey }, file)).statusCode).toBe(404);
    expect((await download({ key: theirs.bucketKey }, file)).statusCode).toBe(404);
  });
});

describe('hostile input', () => {
  it.each(['..', 'a/../b', 'a/./b', '/abs', 'trailing/', 'a//b', '.hidden', 'x'.repeat(256), 'a\\b', 'ü'])('folder %p: 400, nothing stored', async (folder) => {
    const before = await t.database.query<{ n: string }>('SELECT count(*) AS n FROM storage_objects');
    const up = await appUpload({ key: keys.secret }, [{ field: 'folder', value: folder }, { name: 'x.txt', content: 'x' }]);
    expect(up.statusCode).toBe(400);
    expect(up.json().message).toMatch(/folder/);
    expect((await setRule(folder, 'read')).statusCode).toBe(400);
    expect((await list({ key: keys.secret }, `?folder=${encodeURIComponent(folder)}`)).statusCode).toBe(400);
    const after = await t.database.query<{ n: string }>('SELECT count(*) AS n FROM storage_objects');
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('a NUL in a folder is a 400', async () => {
    expect((await appUpload({ key: keys.secret }, [{ field: 'folder', value: 'a\u0000b' }, { name: 'x.txt', content: 'x' }])).statusCode).toBe(400);
    expect((await setRule('a\u0000b', 'read')).statusCode).toBe(400);
  });

  it('a folder sent after the file is refused (the rules are checked before bytes are stored)', async () => {
    const res = await appUpload({ key: keys.secret }, [{ name: 'x.txt', content: 'x' }, { field: 'folder', value: 'public' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('before the file');
  });

  it.each([0, -1, 604801, 1e12, 1.5, '60', null])('expires_in %p: 400', async (expires_in) => {
    const up = await appUpload({ key: keys.secret }, [{ name: 'e.txt', content: 'e' }]);
    const res = await sign({ key: keys.secret }, up.json().file.object_id, expires_in);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('expires_in');
  });

  it('an unknown rule and a malformed link id are 4xx, never 500', async () => {
    expect((await setRule('x', 'everyone')).statusCode).toBe(400);
    expect((await t.post(`/project/${p.id}/object-storage/rules/delete`, { folder: 'never-set' }, p.dev.token)).statusCode).toBe(404);
    expect((await t.post(`/project/${p.id}/object-storage/signed-links/revoke`, { link_id: 'not-a-uuid' }, p.dev.token)).statusCode).toBe(404);
    expect((await revokeApp({ key: keys.secret }, 'not-a-uuid')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/storage/v1/signed/..%2F..%2Fetc%2Fpasswd' })).statusCode).toBe(404);
    expect((await t.post(`/project/${p.id}/object-storage/signed-links`, { object_id: 'nope' }, p.dev.token)).json()).toEqual({ links: [] });
  });
});

describe('the deprecated headers still work', () => {
  it('x-api-key with the secret (bucket) key on storage: full access', async () => {
    const { body, contentType } = multipart([{ name: 'old.txt', content: 'old' }]);
    const up = await t.app.inject({ method: 'POST', url: '/api/storage/v1/objects', headers: { 'x-api-key': p.bucketKey, 'content-type': contentType }, payload: body });
    expect(up.statusCode).toBe(200);
    const id = up.json().file.object_id;
    expect((await t.app.inject({ method: 'GET', url: `/api/storage/v1/objects/${id}`, headers: { 'x-api-key': p.bucketKey } })).body).toBe('old');
    expect((await t.app.inject({ method: 'DELETE', url: `/api/storage/v1/objects/${id}`, headers: { 'x-api-key': p.bucketKey } })).statusCode).toBe(200);
  });

  it('x-api-key with the publishable key and Authorization: Bearer on auth/v1', async () => {
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/v1/user', headers: { 'x-api-key': p.authKey, authorization: `Bearer ${ann.accessToken}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json().email ?? me.json().user?.email).toBe(ann.email);
    const meNew = await t.app.inject({ method: 'GET', url: '/api/auth/v1/user', headers: { 'x-hostbase-key': keys.publishable, 'x-hostbase-user-token': ann.accessToken } });
    expect(meNew.statusCode).toBe(200);
    // An old client without its bearer token hears what is missing.
    const noBearer = await t.app.inject({ method: 'GET', url: '/api/auth/v1/user', headers: { 'x-api-key': p.authKey } });
    expect(noBearer.json().message).toBe('Missing bearer token');
  });
});

describe('the secret key on the database and across instances', () => {
  it('db/v1: the secret key alone bypasses the table rules; the publishable key is refused where they forbid', async () => {
    const { makeTable } = await import('../database/tables');
    await makeTable(t, p, 'secrets', 'id int PRIMARY KEY, body text', 'none');
    const select = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: '/api/db/v1/secrets/select', headers, payload: {} });
    const insert = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: '/api/db/v1/secrets/insert', headers, payload: { rows: [{ id: 1, body: 'x' }] } });
    expect((await insert({ 'x-hostbase-key': keys.secret })).statusCode).toBe(200);
    const bySecret = await select({ 'x-hostbase-key': keys.secret });
    expect(bySecret.statusCode).toBe(200);
    expect(bySecret.json().rows).toEqual([{ id: 1, body: 'x' }]);
    expect((await select({ 'x-hostbase-key': keys.publishable })).statusCode).toBe(403);
    expect((await select({ 'x-hostbase-key': keys.publishable, 'x-hostbase-user-token': ann.accessToken })).statusCode).toBe(403);
    // With an end user's token, the secret key acts as that end user: the rule applies.
    expect((await select({ 'x-hostbase-key': keys.secret, 'x-hostbase-user-token': ann.accessToken })).statusCode).toBe(403);
    // The deprecated pair: the publishable key in x-api-key, under the rules as before.
    expect((await select({ 'x-api-key': keys.publishable })).statusCode).toBe(403);
  });

  it('a link revoked through one instance is refused by another at once', async () => {
    const { secondInstance } = await import('../helpers/app');
    const second = await secondInstance(t);
    try {
      const up = await appUpload({ key: keys.secret }, [{ name: 'shared.txt', content: 'shared' }]);
      const link = (await sign({ key: keys.secret }, up.json().file.object_id, 600)).json().link;
      expect((await second.app.inject({ method: 'GET', url: signedPath(link.url) })).statusCode).toBe(200);
      expect((await revokeApp({ key: keys.secret }, link.link_id)).statusCode).toBe(200);
      const res = await second.app.inject({ method: 'GET', url: signedPath(link.url) });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('This signed link was revoked');
      // A rule set through the second instance is in force on the first.
      expect((await second.app.inject({ method: 'POST', url: `/api/project/${p.id}/object-storage/rules/set`, headers: { authorization: `Bearer ${p.dev.token}` }, payload: { folder: '', access: 'read' } })).statusCode).toBe(200);
      expect((await download({ key: keys.publishable }, up.json().file.object_id)).body).toBe('shared');
      expect((await t.post(`/project/${p.id}/object-storage/rules/delete`, { folder: '' }, p.dev.token)).statusCode).toBe(200);
      expect((await download({ key: keys.publishable }, up.json().file.object_id)).statusCode).toBe(404);
    } finally {
      await second.close();
    }
  });
});
