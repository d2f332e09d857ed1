// A static app deployed on Hostbase itself, using only @hostbase/client (its built dist/index.js,
// served with the site) from a <script type="module">: an end user signs up, uploads an avatar into
// an owner-only folder with progress, sees it through a signed URL, and lists only their own files;
// a second end user sees none of them.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromiumInstalled, openBrowser, type Browser } from './helpers/browser';
import { root, startServer, type RunningServer } from './helpers/server';
import { makeZip } from '../helpers/factories';

const maybe = chromiumInstalled() ? describe : describe.skip;
jest.setTimeout(240_000);

/** A 2×2 red PNG. */
function png(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(type), data])));
    return Buffer.concat([len, Buffer.from(type), data, crc]);
  };
  const ihdr = Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0]); // 2×2, 8-bit RGB
  const rows = Buffer.from([0, 255, 0, 0, 255, 0, 0, 0, 255, 0, 0, 255, 0, 0]);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}
const PNG = png();

const INDEX = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Avatars</title></head>
<body>
  <form id="signup"><input id="email" type="email" required><input id="password" type="password" required><button>Sign up</button></form>
  <p id="who">signed out</p>
  <input id="avatar" type="file" accept="image/*">
  <p id="progress"></p>
  <img id="pic" alt="my avatar">
  <ul id="files"></ul>
  <p id="error"></p>
  <script type="module" src="./app.js"></script>
</body></html>`;

const app = (api: string, key: string) => `import { createClient } from './hostbase-client.js';
const hb = createClient(${JSON.stringify(api)}, ${JSON.stringify(key)});
const $ = (id) => document.getElementById(id);
const fail = (err) => ($('error').textContent = err.message);
hb.auth.onAuthStateChange((_event, session) => ($('who').textContent = session ? session.user.email : 'signed out'));
async function refresh() {
  const { files } = await hb.storage.list({ folder: 'avatars' });
  $('files').replaceChildren(...files.map((f) => Object.assign(document.createElement('li'), { textContent: f.name })));
}
$('signup').addEventListener('submit', (e) => {
  e.preventDefault();
  hb.auth.signUp({ email: $('email').value, password: $('password').value }).then(refresh).catch(fail);
});
$('avatar').addEventListener('change', async () => {
  try {
    const file = await hb.storage.upload($('avatar').files[0], { folder: 'avatars', onProgress: (loaded, total) => ($('progress').textContent = loaded + '/' + total) });
    const signed = await hb.storage.createSignedUrl(file.object_id, 600);
    $('pic').src = signed.url;
    await refresh();
  } catch (err) {
    fail(err);
  }
});
`;

maybe('an app on Hostbase using @hostbase/client in the browser', () => {
  let server: RunningServer;
  let b: Browser;
  let siteUrl = '';

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
    const built = spawnSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'packages/client/tsconfig.json'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('building @hostbase/client failed');
    server = await startServer();
    const port = new URL(server.url).port;
    const stamp = Date.now().toString(36);
    const { token } = await api('/register', { name: 'Ada App', email: `sdk-${stamp}@example.com`, password: 'correct horse battery staple' });
    const subdomain = `avatars-${stamp}`;
    const { project } = await api('/create-project', { projectName: 'Avatars', subdomain }, token);
    siteUrl = `http://${subdomain}.localhost:${port}`;
    const keys = await api(`/project/${project.id}/api-keys`, {}, token);
    await api(`/project/${project.id}/auth/settings`, { allowed_origins: [siteUrl] }, token);
    await api(`/project/${project.id}/object-storage/rules/set`, { folder: 'avatars', access: 'owner' }, token);

    const zip = makeZip([
      { name: 'index.html', data: INDEX },
      { name: 'app.js', data: app(server.url, keys.publishable_key) },
      { name: 'hostbase-client.js', data: fs.readFileSync(path.join(root, 'packages/client/dist/index.js')) },
    ]);
    const form = new FormData();
    form.append('type', 'Static');
    form.append('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), 'site.zip');
    const deployed = await fetch(`${server.url}/api/project/${project.id}/upload-and-extract-zip/`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    if (deployed.status !== 200) throw new Error(`deploy: ${deployed.status} ${await deployed.text()}`);
    b = await openBrowser('client-app', siteUrl);
  });

  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  async function signUpAndUpload(page: Browser['page'], email: string): Promise<void> {
    await page.goto(siteUrl);
    await page.fill('#email', email);
    await page.fill('#password', 'tangerine mosaic 42');
    await page.click('button');
    await page.waitForFunction((e) => document.getElementById('who')?.textContent === e, email);
    await page.setInputFiles('#avatar', { name: `${email.split('@')[0]}.png`, mimeType: 'image/png', buffer: PNG });
    await page.waitForFunction(() => (document.getElementById('pic') as HTMLImageElement).naturalWidth > 0 || document.getElementById('error')!.textContent);
    expect(await page.textContent('#error')).toBe('');
  }

  test('sign up, upload an owner-only avatar, show it through a signed URL, list only your own', async () => {
    const { page } = b;
    await signUpAndUpload(page, `ada-${Date.now()}@example.com`);
    expect(await page.$eval('#pic', (img) => (img as HTMLImageElement).naturalWidth)).toBe(2);
    expect(await page.$eval('#pic', (img) => (img as HTMLImageElement).src)).toContain('/api/storage/v1/object/sign/');
    // XHR's upload progress counts the whole multipart body: all of it, at the end.
    const [loaded, total] = (await page.textContent('#progress'))!.split('/').map(Number);
    expect(loaded).toBe(total);
    expect(loaded).toBeGreaterThan(PNG.length);
    await b.shot('ada-avatar');
    const adaFiles = await page.$$eval('#files li', (lis) => lis.map((li) => li.textContent));
    expect(adaFiles).toHaveLength(1);
    expect(adaFiles[0]).toMatch(/^ada-.*\.png$/);

    // The session survives a reload (localStorage), and the list is still only hers.
    await page.reload();
    await page.waitForFunction(() => document.getElementById('who')?.textContent !== 'signed out');

    // Another end user signs up in a new tab (the session is replaced): only their own file.
    const page2 = await b.context.newPage();
    await signUpAndUpload(page2, `bob-${Date.now()}@example.com`);
    const bobFiles = await page2.$$eval('#files li', (lis) => lis.map((li) => li.textContent));
    expect(bobFiles).toHaveLength(1);
    expect(bobFiles[0]).toMatch(/^bob-.*\.png$/);
    await page2.close();
  });
});
