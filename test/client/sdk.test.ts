// @hostbase/client against the real platform over HTTP (the app listening on a free port): end-user
// auth with refresh rotation and the state listener, storage with progress, database rows and the
// live-changes stream, as an app would use them.
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, registerDeveloper, type Developer, type Project } from '../helpers/factories';
import { createClient, HostbaseError, type AuthEvent, type Change, type Session, type SessionStore } from '../../packages/client/src/index';

jest.setTimeout(60_000);

let t: TestApp;
let url: string;
let dev: Developer;
let p: Project;
let n = 0;
const email = () => `sdk${process.pid}x${++n}@example.com`;
const PASSWORD = 'tangerine mosaic 42';

/** A localStorage stand-in: what the browser build keeps its session in. */
function mapStore(): SessionStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}

function until<T>(check: () => T | undefined, what: string, ms = 20_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + ms;
    const tick = () => {
      const v = check();
      if (v) return resolve(v);
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 25);
    };
    tick();
  });
}

async function refreshWith(refreshToken: string): Promise<number> {
  const res = await fetch(`${url}/api/auth/v1/refresh`, {
    method: 'POST',
    headers: { 'x-api-key': p.authKey, 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: refreshToken }),
  });
  return res.status;
}

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  dev = await registerDeveloper(t);
  p = await createProject(t, dev);
  const made = await t.post(`/project/${p.id}/database/create_table`, { name: 'notes', columns: [{ name: 'body', type: 'text' }, { name: 'rank', type: 'integer' }], access: 'owner' }, dev.token);
  expect(made.statusCode).toBe(200);
  const hidden = await t.post(`/project/${p.id}/database/create_table`, { name: 'hidden', columns: [{ name: 'body', type: 'text' }], access: 'none' }, dev.token);
  expect(hidden.statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

describe('auth', () => {
  test('sign up, the listener, the current user, sign out, sign in', async () => {
    const store = mapStore();
    const hb = createClient(url, p.authKey, { sessionStore: store });
    const events: [AuthEvent, Session | null][] = [];
    const off = hb.auth.onAuthStateChange((e, s) => events.push([e, s]));
    await until(() => events.length === 1, 'the initial event');
    expect(events[0]).toEqual(['INITIAL_SESSION', null]);

    const address = email();
    const session = await hb.auth.signUp({ email: address, password: PASSWORD });
    expect(session.user.email).toBe(address);
    expect(events.at(-1)).toEqual(['SIGNED_IN', session]);
    expect(hb.auth.user?.email).toBe(address);
    expect((await hb.auth.getUser()).id).toBe(session.user.id);

    // The session is kept in the store: a client made later (a reload) is signed in.
    const again = createClient(url, p.authKey, { sessionStore: store });
    expect(again.auth.getSession()?.refresh_token).toBe(session.refresh_token);
    expect((await again.auth.getUser()).email).toBe(address);

    await hb.auth.signOut();
    expect(events.at(-1)).toEqual(['SIGNED_OUT', null]);
    expect(hb.auth.getSession()).toBeNull();
    expect([...store.map.keys()].some((k) => k.endsWith(p.authKey.slice(-12)))).toBe(false);
    expect(await refreshWith(session.refresh_token)).toBe(401); // revoked on the server

    const back = await hb.auth.signIn({ email: address, password: PASSWORD });
    expect(back.user.id).toBe(session.user.id);
    expect(events.at(-1)?.[0]).toBe('SIGNED_IN');
    off();
    await hb.auth.signOut();
    expect(events.at(-1)?.[0]).toBe('SIGNED_IN'); // unsubscribed
  });

  test('a wrong password or a wrong key throws the server message and status', async () => {
    const hb = createClient(url, p.authKey);
    const address = email();
    await hb.auth.signUp({ email: address, password: PASSWORD });
    const wrong = createClient(url, p.authKey);
    const err = await wrong.auth.signIn({ email: address, password: 'not the password' }).catch((e: any) => e);
    expect(err).toBeInstanceOf(HostbaseError);
    expect(err.status).toBe(401);
    expect(err.message).toMatch(/invalid/i);
    expect(wrong.auth.getSession()).toBeNull();

    const badKey = await createClient(url, 'hb_auth_nope').auth.signIn({ email: address, password: PASSWORD }).catch((e: any) => e);
    expect(badKey).toMatchObject({ status: 401 });
    const notSignedIn = await createClient(url, p.authKey).auth.getUser().catch((e: any) => e);
    expect(notSignedIn).toMatchObject({ status: 401, message: 'Not signed in' });
  });

  test('refreshes on its own before expiry, rotating the refresh token', async () => {
    // A margin of all but a second of the token's hour: the refresh is due a second after sign-in.
    const hb = createClient(url, p.authKey, { refreshMargin: 3599 });
    const events: AuthEvent[] = [];
    hb.auth.onAuthStateChange((e) => events.push(e));
    const first = await hb.auth.signUp({ email: email(), password: PASSWORD });
    await until(() => events.includes('TOKEN_REFRESHED'), 'the automatic refresh');
    const second = hb.auth.getSession()!;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect((await hb.auth.getUser()).id).toBe(first.user.id);
    await hb.auth.signOut();
  });

  test('a call refreshes an expiring token first; two refreshes at once rotate once', async () => {
    const hb = createClient(url, p.authKey, { autoRefresh: false, refreshMargin: 3599 });
    const first = await hb.auth.signUp({ email: email(), password: PASSWORD });
    await new Promise((r) => setTimeout(r, 1100)); // now inside the margin
    const [a, b] = await Promise.all([hb.auth.refreshSession(), hb.auth.refreshSession()]);
    expect(a).toBe(b);
    expect(a!.refresh_token).not.toBe(first.refresh_token);
    await new Promise((r) => setTimeout(r, 1100));
    await hb.db.from('notes').insert({ body: 'refreshed first' }); // the token it sends was refreshed
    expect(hb.auth.getSession()!.refresh_token).not.toBe(a!.refresh_token);
    await hb.auth.signOut();
  });

  test('a refresh token refused by the server signs the client out', async () => {
    const hb = createClient(url, p.authKey, { autoRefresh: false });
    const events: AuthEvent[] = [];
    hb.auth.onAuthStateChange((e) => events.push(e));
    const s = await hb.auth.signUp({ email: email(), password: PASSWORD });
    expect(await refreshWith(s.refresh_token)).toBe(200); // someone else rotated it
    const err = await hb.auth.refreshSession().catch((e: any) => e);
    expect(err).toMatchObject({ status: 401 });
    expect(hb.auth.getSession()).toBeNull();
    expect(events.at(-1)).toBe('SIGNED_OUT');
  });

  test('a session another tab already refreshed is taken over, not refreshed again', async () => {
    const store = mapStore();
    const tab1 = createClient(url, p.authKey, { sessionStore: store, autoRefresh: false, refreshMargin: 0 });
    await tab1.auth.signUp({ email: email(), password: PASSWORD });
    const tab2 = createClient(url, p.authKey, { sessionStore: store, autoRefresh: false, refreshMargin: 0 });
    const rotated = await tab2.auth.refreshSession();
    const taken = await tab1.auth.refreshSession(); // its refresh token is the rotated-away one
    expect(taken!.refresh_token).toBe(rotated!.refresh_token);
    expect((await tab1.auth.getUser()).id).toBe(rotated!.user.id);
  });
});

describe('storage', () => {
  test('upload with progress, list, download, delete', async () => {
    const hb = createClient(url, p.bucketKey);
    const bytes = new Uint8Array(300 * 1024).map((_, i) => i % 251);
    const progress: [number, number | undefined][] = [];
    const big = await hb.storage.upload(bytes, { name: 'big "quoted".bin', onProgress: (l, total) => progress.push([l, total]) });
    expect(big).toMatchObject({ name: 'big %22quoted%22.bin', object_size: bytes.length, object_type: 'application/octet-stream' });
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.at(-1)).toEqual([bytes.length, bytes.length]);
    expect(progress.every(([l], i) => i === 0 || l > progress[i - 1][0])).toBe(true);

    const text = await hb.storage.upload(new Blob(['hello from node'], { type: 'text/plain' }), { name: 'hello.txt' });
    expect(text).toMatchObject({ name: 'hello.txt', object_type: 'text/plain', object_size: 15 });
    // The client hands out no URL with a file: files are private.
    expect(text).not.toHaveProperty('path');

    // A Node stream of unknown length: progress without a total.
    const seen: (number | undefined)[] = [];
    const streamed = await hb.storage.upload(Readable.from([Buffer.from('a'.repeat(70_000)), Buffer.from('b'.repeat(10))]), { name: 'stream.txt', contentType: 'text/plain', onProgress: (_l, total) => seen.push(total) });
    expect(streamed.object_size).toBe(70_010);
    expect(seen).toEqual([undefined, undefined]);

    const list = await hb.storage.list();
    expect(list.files.map((f) => f.name).sort()).toEqual(['big %22quoted%22.bin', 'hello.txt', 'stream.txt']);
    expect(list.files.some((f) => 'path' in f)).toBe(false);
    expect(list.total).toBe(3);

    expect(await (await hb.storage.download(text.object_id)).text()).toBe('hello from node');
    expect(new Uint8Array(await (await hb.storage.download(big.object_id)).arrayBuffer())).toEqual(bytes);

    await hb.storage.remove(text.object_id);
    await hb.storage.delete(streamed.object_id);
    expect((await hb.storage.list()).files.map((f) => f.object_id)).toEqual([big.object_id]);
    const gone = await hb.storage.download(text.object_id).catch((e: any) => e);
    expect(gone).toBeInstanceOf(HostbaseError);
    expect(gone.status).toBe(404);
    await hb.storage.remove(big.object_id);
  });

  test("another project's key sees none of the files", async () => {
    const mine = createClient(url, p.bucketKey);
    const f = await mine.storage.upload('mine', { name: 'mine.txt' });
    const other = createClient(url, (await createProject(t, dev)).bucketKey);
    expect((await other.storage.list()).files).toEqual([]);
    expect(await other.storage.download(f.object_id).catch((e) => e.status)).toBe(404);
    expect(await other.storage.remove(f.object_id).catch((e) => e.status)).toBe(404);
    expect(await (await mine.storage.download(f.object_id)).text()).toBe('mine');
    await mine.storage.remove(f.object_id);
  });
});

describe('storage with the publishable key and an end user (folder rules, signed links)', () => {
  test('owner-only files: each user lists, downloads and deletes only their own; a signed link shows one until revoked', async () => {
    const rule = await t.post(`/project/${p.id}/object-storage/rules/set`, { folder: 'avatars', access: 'owner' }, dev.token);
    expect(rule.statusCode).toBe(200);
    const ada = createClient(url, p.authKey);
    await ada.auth.signUp({ email: email(), password: PASSWORD });
    const bob = createClient(url, p.authKey);
    await bob.auth.signUp({ email: email(), password: PASSWORD });

    const mine = await ada.storage.upload(new Blob(['ada face'], { type: 'image/png' }), { name: 'me.png', folder: 'avatars' });
    expect(mine).toMatchObject({ name: 'me.png', folder: 'avatars', owner_id: ada.auth.user!.id });
    await bob.storage.upload('bob face', { name: 'bob.png', contentType: 'image/png', folder: 'avatars' });
    expect((await ada.storage.list({ folder: 'avatars' })).files.map((f) => f.name)).toEqual(['me.png']);
    expect((await bob.storage.list({ folder: 'avatars' })).files.map((f) => f.name)).toEqual(['bob.png']);
    expect(await bob.storage.download(mine.object_id).catch((e) => e.status)).toBe(404);
    expect(await bob.storage.remove(mine.object_id).catch((e) => e.status)).toBe(404);
    expect(await bob.storage.signedUrl(mine.object_id).catch((e) => e.status)).toBe(404);
    // Signed out, the key alone gets nothing of an owner folder.
    const anon = createClient(url, p.authKey);
    expect((await anon.storage.list({ folder: 'avatars' })).files).toEqual([]);
    expect(await anon.storage.upload('x', { folder: 'avatars' }).catch((e) => e.status)).toBe(403);

    const link = await ada.storage.signedUrl(mine.object_id, 600);
    expect(link).toMatchObject({ object_id: mine.object_id, download_count: 0 });
    // The link is built on PUBLIC_URL (the test app's is not this port): the same path here.
    const here = url + new URL(link.url).pathname;
    const got = await fetch(here);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe('ada face');
    await ada.storage.revokeSignedUrl(link.link_id);
    expect((await fetch(here)).status).toBe(403);

    await ada.storage.remove(mine.object_id);
    expect((await ada.storage.list({ folder: 'avatars' })).files).toEqual([]);
  });

  test('signed URLs for private files end with the rule; a public folder has a public URL', async () => {
    const setRule = (folder: string, access: string, extra = {}) => t.post(`/project/${p.id}/object-storage/rules/set`, { folder, access, ...extra }, dev.token);
    expect((await setRule('photos', 'owner')).statusCode).toBe(200);
    const ada = createClient(url, p.authKey);
    await ada.auth.signUp({ email: email(), password: PASSWORD });
    const bob = createClient(url, p.authKey);
    await bob.auth.signUp({ email: email(), password: PASSWORD });
    const mine = await ada.storage.upload('ada photo', { name: 'ada.png', contentType: 'image/png', folder: 'photos' });
    const theirs = await bob.storage.upload('bob photo', { name: 'bob.png', contentType: 'image/png', folder: 'photos' });
    // PUBLIC_URL is not this port: the same path here.
    const here = (u: string) => url + new URL(u).pathname + new URL(u).search;

    const signed = await ada.storage.createSignedUrl(mine.object_id, 600);
    expect(signed).toMatchObject({ object_id: mine.object_id, url: expect.stringContaining('/api/storage/v1/object/sign/') });
    expect(await (await fetch(here(signed.url))).text()).toBe('ada photo');
    expect(await bob.storage.createSignedUrl(mine.object_id).catch((e) => e.status)).toBe(404);
    const many = await ada.storage.createSignedUrls([mine.object_id, theirs.object_id]);
    expect(many.map((m) => m.url === null)).toEqual([false, true]);
    expect(many[1]).toMatchObject({ object_id: theirs.object_id, error: 'File not found' });

    // The developer closes the folder: the URL ends at once.
    expect((await setRule('photos', 'none')).statusCode).toBe(200);
    expect((await fetch(here(signed.url))).status).toBe(404);

    // A public folder: its files at a stable URL, built without a call.
    expect((await setRule('photos', 'none', { public: true })).statusCode).toBe(200);
    const pub = ada.storage.getPublicUrl(mine.object_id);
    expect(pub).toBe(`${url}/api/storage/v1/object/public/${mine.object_id}`);
    expect(await (await fetch(pub)).text()).toBe('ada photo');
    expect((await setRule('photos', 'none', { public: false })).statusCode).toBe(200);
    expect((await fetch(pub)).status).toBe(404);
  });
});

describe('database', () => {
  test('insert, select with filters, order and pages, update, delete, as the signed-in owner', async () => {
    const hb = createClient(url, p.authKey);
    await hb.auth.signUp({ email: email(), password: PASSWORD });
    const made = await hb.db.from('notes').insert([{ body: 'alpha', rank: 3 }, { body: 'beta', rank: 1 }, { body: 'gamma', rank: 2 }]);
    expect(made).toMatchObject({ message: 'inserted', count: 3 });

    const page = await hb.db.from('notes').select('body, rank').gte('rank', 2).order('rank', { ascending: false }).count();
    expect(page.rows).toEqual([{ body: 'alpha', rank: 3 }, { body: 'gamma', rank: 2 }]);
    expect(page).toMatchObject({ total: 2, page: 1, next_page: null });
    expect((await hb.db.from('notes').select(['body']).in('body', ['beta', 'zeta'])).rows).toEqual([{ body: 'beta' }]);
    expect((await hb.db.from('notes').select().ilike('body', '%MM%')).rows).toMatchObject([{ body: 'gamma' }]);
    expect((await hb.db.from('notes').select().page(2)).rows).toEqual([]);

    const updated = await hb.db.from('notes').update({ rank: 10 }).eq('body', 'beta');
    expect(updated).toMatchObject({ message: 'updated', count: 1, rows: [{ body: 'beta', rank: 10 }] });
    const removed = await hb.db.from('notes').eq('body', 'alpha').delete();
    expect(removed).toMatchObject({ message: 'deleted', count: 1 });
    expect((await hb.db.from('notes').select('body').order('body')).rows).toEqual([{ body: 'beta' }, { body: 'gamma' }]);

    // Another end user of the project sees and changes none of them (the owner rule).
    const other = createClient(url, p.authKey);
    await other.auth.signUp({ email: email(), password: PASSWORD });
    expect((await other.db.from('notes').select()).rows).toEqual([]);
    expect(await other.db.from('notes').eq('body', 'beta').delete()).toMatchObject({ count: 0 });
    expect((await hb.db.from('notes').select().count()).total).toBe(2);

    // Bad input: the server's message.
    const bad = await hb.db.from('notes').select().eq('nope', 1).catch((e: any) => e);
    expect(bad).toBeInstanceOf(HostbaseError);
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    expect(bad.message).toMatch(/nope/);
    const noFilter = await hb.db.from('notes').delete().catch((e: any) => e);
    expect(noFilter.status).toBe(400);
    // Signed out, the key alone reads nothing of an owner-only table; a table with no app access refuses.
    expect((await createClient(url, p.authKey).db.from('notes').select()).rows).toEqual([]);
    const refused = await hb.db.from('hidden').select().catch((e: any) => e);
    expect(refused).toMatchObject({ status: 403 });
  });

  test('subscribe: the live changes of the rows the user may read', async () => {
    const hb = createClient(url, p.authKey);
    await hb.auth.signUp({ email: email(), password: PASSWORD });
    const other = createClient(url, p.authKey);
    await other.auth.signUp({ email: email(), password: PASSWORD });

    const changes: Change[] = [];
    let ready = false;
    const streamErrors: Error[] = [];
    const sub = hb.db.from('notes').subscribe((c) => changes.push(c), { onReady: () => (ready = true), onError: (e) => streamErrors.push(e) });
    await until(() => ready, 'the ready event');
    await other.db.from('notes').insert({ body: 'not yours' });
    // One step at a time: the server reads a changed row when it sends the event (a row changed twice
    // before that is sent as it is by then).
    const step = async (n: number, write: () => PromiseLike<unknown>) => {
      await write();
      await until(() => changes.length >= n, `${n} changes`).catch((e) => {
        throw new Error(`${e.message}: ${JSON.stringify(changes)} ${streamErrors.map((x) => x.message)}`);
      });
    };
    let row = { id: 0 };
    await step(1, async () => ([row] = (await hb.db.from('notes').insert({ body: 'live', rank: 1 })).rows as { id: number }[]));
    await step(2, () => hb.db.from('notes').eq('id', row.id).update({ rank: 2 }));
    await step(3, () => hb.db.from('notes').eq('id', row.id).delete());
    expect(changes.map((c) => c.type)).toEqual(['INSERT', 'UPDATE', 'DELETE']);
    expect(changes[0]).toMatchObject({ table: 'notes', record: { id: row.id, body: 'live', rank: 1 } });
    expect(changes[1].record).toMatchObject({ rank: 2 });
    expect(changes[2].old_record).toMatchObject({ id: row.id });
    sub.close();

    // A table the caller may not read: the error, and no retrying.
    const errors: Error[] = [];
    hb.db.from('hidden').subscribe(() => undefined, { onError: (e) => errors.push(e) });
    const missing: Error[] = [];
    hb.db.from('no_such_table').subscribe(() => undefined, { onError: (e) => missing.push(e) });
    await until(() => errors.length && missing.length, 'the refusals');
    expect(errors[0]).toMatchObject({ status: 403 });
    expect(missing[0]).toMatchObject({ status: 404 });
    await new Promise((r) => setTimeout(r, 300));
    expect(errors).toHaveLength(1);
  });
});
