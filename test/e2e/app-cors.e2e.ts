// A browser app on its own origin (a page served by a tiny server on another port) calls every
// app API of the real platform with fetch, as Chromium enforces CORS: end-user sign-up, storage
// upload / list / ranged download / delete and a 404 it can read, database rows, the live-changes
// stream. The same calls from an origin the project does not list, or with another project's key,
// are refused by the browser.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromiumInstalled, openBrowser, type Browser } from './helpers/browser';
import { startServer, type RunningServer } from './helpers/server';

const maybe = chromiumInstalled() ? describe : describe.skip;
jest.setTimeout(180_000);

/** A page's origin: one static page, nothing else. */
async function pageServer(): Promise<{ origin: string; close: () => Promise<void> }> {
  const srv = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title><p>app'));
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return { origin: `http://localhost:${(srv.address() as AddressInfo).port}`, close: () => new Promise((resolve) => srv.close(() => resolve())) };
}

maybe('a browser app calling the app APIs from its own origin', () => {
  let server: RunningServer;
  let b: Browser;
  let listed: Awaited<ReturnType<typeof pageServer>>;
  let unlisted: Awaited<ReturnType<typeof pageServer>>;
  const keys = { a: { bucket: '', auth: '' }, b: { bucket: '', auth: '' } };

  const api = async (p: string, body: unknown, token?: string) => {
    const res = await fetch(`${server.url}/api${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };

  beforeAll(async () => {
    server = await startServer();
    [listed, unlisted] = await Promise.all([pageServer(), pageServer()]);
    b = await openBrowser('app-cors', server.url);
    const stamp = Date.now().toString(36);
    const { token } = await api('/register', { name: 'Ada App', email: `cors-${stamp}@example.com`, password: 'correct horse battery staple' });
    for (const name of ['a', 'b'] as const) {
      const made = await api('/create-project', { projectName: `App ${name}`, subdomain: `cors-${name}-${stamp}` }, token);
      const id = made.project.id as string;
      keys[name].bucket = (await api(`/project/${id}/bucket-details`, {}, token)).api_key;
      keys[name].auth = (await api(`/project/${id}/authentication-details`, {}, token)).api_key;
      if (name === 'a') {
        await api(`/project/${id}/auth/settings`, { allowed_origins: [listed.origin] }, token);
        await api(`/project/${id}/database/create_table`, { name: 'notes', columns: [{ name: 'body', type: 'text' }], access: 'signed_in' }, token);
      }
    }
  });

  afterAll(async () => {
    await b?.close();
    await Promise.all([listed?.close(), unlisted?.close()]);
    await server?.stop();
  });

  test('from a listed origin, every app API answers and the app reads what it needs', async () => {
    const { page } = b;
    await page.goto(listed.origin);
    const seen = await page.evaluate(
      async ({ base, bucketKey, authKey }) => {
        const out: Record<string, unknown> = {};
        const signup = await fetch(`${base}/api/auth/v1/signup`, {
          method: 'POST',
          headers: { 'x-api-key': authKey, 'content-type': 'application/json' },
          body: JSON.stringify({ email: `reader-${Date.now()}@example.com`, password: 'tangerine mosaic 1' }),
        });
        out.signup = signup.status;
        const token = (await signup.json()).access_token as string;

        const form = new FormData();
        form.append('file', new Blob(['hello browser'], { type: 'text/plain' }), 'hello.txt');
        const up = await fetch(`${base}/api/storage/v1/objects`, { method: 'POST', headers: { 'x-api-key': bucketKey }, body: form });
        out.upload = up.status;
        const id = (await up.json()).file.object_id as string;
        const list = await fetch(`${base}/api/storage/v1/objects`, { headers: { 'x-api-key': bucketKey } });
        out.listed = ((await list.json()).files as { object_id: string }[]).map((f) => f.object_id).includes(id);
        const part = await fetch(`${base}/api/storage/v1/objects/${id}`, { headers: { 'x-api-key': bucketKey, range: 'bytes=0-4' } });
        out.range = { status: part.status, text: await part.text(), contentRange: part.headers.get('content-range'), disposition: part.headers.get('content-disposition'), etag: Boolean(part.headers.get('etag')) };
        out.delete = (await fetch(`${base}/api/storage/v1/objects/${id}`, { method: 'DELETE', headers: { 'x-api-key': bucketKey } })).status;
        const gone = await fetch(`${base}/api/storage/v1/objects/${id}`, { headers: { 'x-api-key': bucketKey } });
        out.gone = { status: gone.status, message: (await gone.json()).message };

        const rows = { 'x-api-key': authKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        out.insert = (await fetch(`${base}/api/db/v1/notes/insert`, { method: 'POST', headers: rows, body: JSON.stringify({ rows: [{ body: 'from the page' }] }) })).status;
        const select = await fetch(`${base}/api/db/v1/notes/select`, { method: 'POST', headers: rows, body: '{}' });
        out.select = ((await select.json()).rows as { body: string }[]).map((r) => r.body);
        const anonymous = await fetch(`${base}/api/db/v1/notes/insert`, { method: 'POST', headers: { 'x-api-key': authKey, 'content-type': 'application/json' }, body: JSON.stringify({ rows: [{ body: 'x' }] }) });
        out.anonymous = { status: anonymous.status, hasMessage: typeof (await anonymous.json()).message === 'string' };

        const stream = new AbortController();
        const changes = await fetch(`${base}/api/db/v1/notes/changes`, { headers: { 'x-api-key': authKey, authorization: `Bearer ${token}` }, signal: stream.signal });
        const first = await changes.body!.getReader().read();
        out.changes = { status: changes.status, ready: new TextDecoder().decode(first.value).includes('event: ready') };
        stream.abort();
        return out;
      },
      { base: server.url, bucketKey: keys.a.bucket, authKey: keys.a.auth },
    );
    expect(seen).toEqual({
      signup: 200,
      upload: 200,
      listed: true,
      range: { status: 206, text: 'hello', contentRange: 'bytes 0-4/13', disposition: expect.stringContaining('hello.txt'), etag: true },
      delete: 200,
      gone: { status: 404, message: expect.any(String) },
      insert: 200,
      select: ['from the page'],
      anonymous: { status: 403, hasMessage: true },
      changes: { status: 200, ready: true },
    });
    await b.shot('listed-origin');
  });

  /** What a page gets from fetch: the status, or the browser's refusal. */
  const attempt = (url: string, headers: Record<string, string>) =>
    b.page.evaluate(async ({ url, headers }) => {
      try {
        return String((await fetch(url, { headers })).status);
      } catch (err) {
        return (err as Error).name;
      }
    }, { url, headers });

  test("another project's key from the listed origin: refused by the browser", async () => {
    await b.page.goto(listed.origin);
    expect(await attempt(`${server.url}/api/storage/v1/objects`, { 'x-api-key': keys.a.bucket })).toBe('200');
    expect(await attempt(`${server.url}/api/storage/v1/objects`, { 'x-api-key': keys.b.bucket })).toBe('TypeError');
  });

  test('an origin the project does not list: refused by the browser', async () => {
    await b.page.goto(unlisted.origin);
    expect(await attempt(`${server.url}/api/storage/v1/objects`, { 'x-api-key': keys.a.bucket })).toBe('TypeError');
    expect(await attempt(`${server.url}/api/auth/v1/user`, { 'x-api-key': keys.a.auth })).toBe('TypeError');
  });
});
