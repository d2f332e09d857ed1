// Files are private unless the developer shares them or their folder is public, through the real
// app: answers to the publishable key or an end user carry no URL that works without a key; the
// console and the secret key see a shared file's share link; sharing, unsharing (the link ends at
// once) and sharing again (a new segment); public folders and the flag's removal; and for each new
// operation bad input and another account or project.
import { buildTestApp, registerDeveloper, type Developer, type TestApp } from '../helpers/app';
import { createProject, multipart, signUpEndUser, type EndUser, type Part, type Project } from '../helpers/factories';

jest.setTimeout(60_000);

let t: TestApp;
let p: Project;
let ann: EndUser;
let bob: EndUser;
let stranger: Developer;
let keys: { publishable: string; secret: string };

type Creds = { key: string; token?: string };
const headersOf = (c: Creds): Record<string, string> => ({ 'x-hostbase-key': c.key, ...(c.token ? { 'x-hostbase-user-token': c.token } : {}) });
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

function appUpload(c: Creds, folder: string, name: string, content: string) {
  const parts: Part[] = [{ field: 'folder', value: folder }, { name, content }];
  const { body, contentType } = multipart(parts);
  return t.app.inject({ method: 'POST', url: '/api/storage/v1/objects', headers: { ...headersOf(c), 'content-type': contentType }, payload: body });
}
const appList = (c: Creds, folder = '') => get(`/api/storage/v1/objects${folder ? `?folder=${folder}` : ''}`, headersOf(c));
const consoleList = (token = p.dev.token) => t.post(`/project/${p.id}/object-storage/files`, {}, token);
const share = (objectId: unknown, token = p.dev.token) => t.post(`/project/${p.id}/object-storage/share`, { object_id: objectId }, token);
const unshare = (objectId: unknown, token = p.dev.token) => t.post(`/project/${p.id}/object-storage/unshare`, { object_id: objectId }, token);
const appShare = (c: Creds, id: string, method: 'PUT' | 'DELETE' = 'PUT') => t.app.inject({ method, url: `/api/storage/v1/objects/${id}/share`, headers: headersOf(c) });
const setRule = (folder: string, access: string, extra: Record<string, unknown> = {}, token = p.dev.token) =>
  t.post(`/project/${p.id}/object-storage/rules/set`, { folder, access, ...extra }, token);
const publicUrl = (id: string) => `/api/storage/v1/object/public/${id}`;
const pathOf = (url: string) => new URL(url).pathname;
/** Any URL that serves bytes without a key. */
const KEYLESS = /s3\/object-storage|object\/sign|object\/public|storage\/v1\/signed/;

beforeAll(async () => {
  t = await buildTestApp();
  p = await createProject(t);
  const k = (await t.post(`/project/${p.id}/api-keys`, {}, p.dev.token)).json();
  keys = { publishable: k.publishable_key, secret: k.secret_key };
  ann = await signUpEndUser(t, p);
  bob = await signUpEndUser(t, p);
  stranger = await registerDeveloper(t);
  for (const [folder, access] of [['docs', 'signed_in'], ['avatars', 'owner'], ['pub', 'read']]) expect((await setRule(folder, access)).statusCode).toBe(200);
});
afterAll(() => t.close());

describe('no answer to an app carries a URL that works without a key', () => {
  it('an end user lists and uploads: no path, no keyless URL; the developer sees the file private until shared', async () => {
    const up = await appUpload({ key: keys.publishable, token: ann.accessToken }, 'docs', 'plan.txt', 'PLAN');
    expect(up.statusCode).toBe(200);
    expect(up.json().file).not.toHaveProperty('path');
    expect(up.body).not.toMatch(KEYLESS);
    const id = up.json().file.object_id;

    const listed = await appList({ key: keys.publishable, token: bob.accessToken }, 'docs');
    expect(listed.json().files.map((f: { object_id: string }) => f.object_id)).toEqual([id]);
    expect(listed.json().files[0]).not.toHaveProperty('path');
    expect(listed.body).not.toMatch(KEYLESS);

    // The console and the secret key alone are the developer: a new upload is private.
    const mine = (await consoleList()).json().files.find((f: { object_id: string }) => f.object_id === id);
    expect(mine.path).toBeNull();
    expect((await appList({ key: keys.secret }, 'docs')).json().files[0].path).toBeNull();

    // Shared, the developer sees its link; the end user still sees no URL.
    expect((await share(id)).statusCode).toBe(200);
    expect((await consoleList()).json().files.find((f: { object_id: string }) => f.object_id === id).path).toMatch(/\/s3\/object-storage\//);
    expect((await appList({ key: keys.secret }, 'docs')).json().files[0].path).toMatch(/\/s3\/object-storage\//);
    const again = await appList({ key: keys.publishable, token: bob.accessToken }, 'docs');
    expect(again.body).not.toMatch(KEYLESS);
    // The secret key with an end user's token acts as that end user: no URL either.
    expect((await appList({ key: keys.secret, token: bob.accessToken }, 'docs')).body).not.toMatch(KEYLESS);
  });

  it('the publishable key alone, even under a read rule, collects no permanent URL', async () => {
    const id = (await appUpload({ key: keys.secret }, 'pub', 'terms.txt', 'TERMS')).json().file.object_id;
    await share(id);
    const listed = await appList({ key: keys.publishable }, 'pub');
    expect(listed.json().files.map((f: { object_id: string }) => f.object_id)).toContain(id);
    expect(listed.body).not.toMatch(KEYLESS);
  });

  it('an owner-only file has no keyless URL until the developer shares it', async () => {
    const up = await appUpload({ key: keys.publishable, token: ann.accessToken }, 'avatars', 'me.png', 'ME');
    const id = up.json().file.object_id;
    expect(up.body).not.toMatch(KEYLESS);
    // No share link exists to guess: any segment is a 404.
    expect((await get(`/s3/object-storage/${'A'.repeat(24)}/${id}`)).statusCode).toBe(404);
    expect((await get(publicUrl(id))).statusCode).toBe(404);
  });
});

describe('share links', () => {
  let id: string;
  beforeAll(async () => {
    id = (await appUpload({ key: keys.secret }, '', 'report.pdf', 'REPORT')).json().file.object_id;
  });

  it('share: the link works without a key; sharing twice keeps it; unshare ends it at once; sharing again makes a new one', async () => {
    const first = await share(id);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ message: 'shared', file: { object_id: id, path: expect.stringMatching(/^http:\/\/localhost:3000\/s3\/object-storage\/[\w-]{24}\//) } });
    const link = pathOf(first.json().file.path);
    expect((await get(link)).body).toBe('REPORT');
    expect((await get('/api' + link)).body).toBe('REPORT');
    expect((await share(id)).json().file.path).toBe(first.json().file.path);

    const off = await unshare(id);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ message: 'unshared' });
    for (const url of [link, '/api' + link]) {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'File not found', code: 'NOT_FOUND' });
    }
    expect((await consoleList()).json().files.find((f: { object_id: string }) => f.object_id === id).path).toBeNull();
    // Unsharing a private file is fine too.
    expect((await unshare(id)).statusCode).toBe(200);

    const second = (await share(id)).json().file.path;
    expect(second).not.toBe(first.json().file.path);
    expect(second.split('/')[6]).toBe(id);
    expect((await get(pathOf(second))).body).toBe('REPORT');
    expect((await get(link)).statusCode).toBe(404);
  });

  it('the secret key alone may share and unshare; the publishable key and end users may not (403)', async () => {
    const other = (await appUpload({ key: keys.secret }, 'docs', 'team.txt', 'TEAM')).json().file.object_id;
    for (const c of [{ key: keys.publishable }, { key: keys.publishable, token: ann.accessToken }, { key: keys.secret, token: ann.accessToken }]) {
      for (const method of ['PUT', 'DELETE'] as const) {
        const res = await appShare(c, other, method);
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toMatch(/secret key/);
      }
    }
    expect((await consoleList()).json().files.find((f: { object_id: string }) => f.object_id === other).path).toBeNull();
    const shared = await appShare({ key: keys.secret }, other);
    expect(shared.statusCode).toBe(200);
    const link = pathOf(shared.json().file.path);
    expect((await get(link)).body).toBe('TEAM');
    expect((await appShare({ key: keys.secret }, other, 'DELETE')).json()).toEqual({ message: 'unshared' });
    expect((await get(link)).statusCode).toBe(404);
  });

  it('another account, another project, and ids that name nothing: 404, nothing changed', async () => {
    expect((await share(id, stranger.token)).statusCode).toBe(404);
    expect((await unshare(id, stranger.token)).statusCode).toBe(404);
    const theirs = await createProject(t, stranger);
    // Their own project's path with our file: not theirs.
    expect((await t.post(`/project/${theirs.id}/object-storage/share`, { object_id: id }, stranger.token)).statusCode).toBe(404);
    expect((await appShare({ key: theirs.bucketKey }, id)).statusCode).toBe(404);
    expect((await appShare({ key: theirs.bucketKey }, id, 'DELETE')).statusCode).toBe(404);
    // Still shared, with the link it had.
    const path = (await consoleList()).json().files.find((f: { object_id: string }) => f.object_id === id).path;
    expect((await get(pathOf(path))).body).toBe('REPORT');
    for (const bad of ['00000000-0000-0000-0000-000000000000', 'not-a-uuid']) {
      expect((await share(bad)).statusCode).toBe(404);
      expect((await unshare(bad)).statusCode).toBe(404);
      expect((await appShare({ key: keys.secret }, bad)).statusCode).toBe(404);
    }
  });

  it('bad input is a 400 that names the field, never a 500', async () => {
    for (const body of [{}, { object_id: 5 }, { object_id: 'a\u0000b' }, { object_id: 'x'.repeat(65) }]) {
      for (const op of ['share', 'unshare']) {
        const res = await t.post(`/project/${p.id}/object-storage/${op}`, body, p.dev.token);
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toMatch(/object_id/);
      }
    }
    expect((await appShare({ key: keys.secret }, 'a%00b')).statusCode).toBe(400);
    expect((await appShare({ key: keys.secret }, 'x'.repeat(65))).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: `/api/project/${p.id}/object-storage/share` })).statusCode).toBe(401);
  });
});

describe('public folders', () => {
  let id: string;
  let inner: string;
  let elsewhere: string;
  beforeAll(async () => {
    id = (await appUpload({ key: keys.secret }, 'site/img', 'logo.svg', '<svg/>')).json().file.object_id;
    inner = (await appUpload({ key: keys.secret }, 'site/drafts', 'draft.txt', 'DRAFT')).json().file.object_id;
    elsewhere = (await appUpload({ key: keys.secret }, 'docs', 'internal.txt', 'INTERNAL')).json().file.object_id;
  });

  it('a folder marked public serves its files to anyone; the flag cleared or the rule removed ends it at once', async () => {
    expect((await get(publicUrl(id))).statusCode).toBe(404);
    const set = await setRule('site', 'none', { public: true });
    expect(set.statusCode).toBe(200);
    expect(set.json().rule).toMatchObject({ folder: 'site', access: 'none', public: true });
    const res = await get(publicUrl(id));
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('<svg/>');
    expect(res.headers['content-security-policy']).toMatch(/^sandbox/);
    expect((await get(publicUrl(id) + '?download=1')).headers['content-disposition']).toMatch(/^attachment/);
    // Public is not access for the key: the rule's access still governs key calls.
    expect((await get(`/api/storage/v1/objects/${id}`, headersOf({ key: keys.publishable }))).statusCode).toBe(404);
    // Other folders stay private.
    expect((await get(publicUrl(elsewhere))).statusCode).toBe(404);

    // A subfolder with its own, non-public rule is not public.
    expect((await setRule('site/drafts', 'none')).json().rule.public).toBe(false);
    expect((await get(publicUrl(inner))).statusCode).toBe(404);
    // Changing the access without naming the flag keeps it.
    expect((await setRule('site', 'read')).json().rule).toMatchObject({ access: 'read', public: true });
    expect((await get(publicUrl(id))).statusCode).toBe(200);
    const rules = (await t.post(`/project/${p.id}/object-storage/rules`, {}, p.dev.token)).json().rules;
    expect(rules).toContainEqual(expect.objectContaining({ folder: 'site', public: true }));
    expect(rules).toContainEqual(expect.objectContaining({ folder: 'docs', public: false }));

    expect((await setRule('site', 'read', { public: false })).json().rule.public).toBe(false);
    expect((await get(publicUrl(id))).statusCode).toBe(404);
    await setRule('site', 'read', { public: true });
    expect((await get(publicUrl(id))).statusCode).toBe(200);
    expect((await t.post(`/project/${p.id}/object-storage/rules/delete`, { folder: 'site' }, p.dev.token)).statusCode).toBe(200);
    const gone = await get(publicUrl(id));
    expect(gone.statusCode).toBe(404);
    // Exactly the answer for a file that never existed: nothing says whether it does.
    expect(gone.json()).toEqual((await get(publicUrl('00000000-0000-0000-0000-000000000000'))).json());
  });

  it('junk ids are 4xx, never 500; another account can\'t set the flag', async () => {
    for (const junk of ['not-a-uuid', 'a%00b', '..%2F..%2Fetc']) expect([400, 404]).toContain((await get(publicUrl(junk))).statusCode);
    expect((await get(publicUrl('x'.repeat(65)))).statusCode).toBe(400);
    expect((await setRule('site', 'read', { public: 'yes' })).statusCode).toBe(400);
    expect((await setRule('site', 'read', { public: true }, stranger.token)).statusCode).toBe(404);
    expect((await get(publicUrl(id))).statusCode).toBe(404);
  });
});
