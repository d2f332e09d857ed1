// A newcomer's first app, from the landing page to data in the project: Start Building → sign up →
// New Project (it opens its dashboard) → a table made on the Database screen → Connect, where the
// API URL, the publishable key and the snippets are read off the page → the SDK snippet and the
// fetch snippet, pasted unchanged into a page that Chromium runs → the rows and the files they made
// are in the project (read back through the API with the secret key).
// The page is served on the platform's own origin (a routed URL), with @hostbase/client's built
// dist/index.js behind an import map, so `import … from '@hostbase/client'` resolves as pasted.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { chromiumInstalled, openBrowser, type Browser } from './helpers/browser';
import { createProject, signUp } from './helpers/console';
import { root, startServer, type RunningServer } from './helpers/server';

const maybe = chromiumInstalled() ? describe : describe.skip;
jest.setTimeout(240_000);

maybe('first app: from the landing page to a row and a file made by the pasted snippet', () => {
  let server: RunningServer;
  let b: Browser;
  const stamp = Date.now().toString(36);
  let devToken = '';
  let projectId = '';
  let apiUrl = '';
  let publishableKey = '';

  const api = async (p: string, body: unknown, headers: Record<string, string>) => {
    const res = await fetch(`${server.url}/api${p}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };

  beforeAll(async () => {
    const built = spawnSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'packages/client/tsconfig.json'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('building @hostbase/client failed');
    server = await startServer();
    b = await openBrowser('first-app', server.url);
  });

  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  test('Start Building leads to sign-up; a new project opens on its dashboard', async () => {
    const { page } = b;
    await page.goto('/');
    await page.getByRole('link', { name: 'Start Building' }).click();
    await page.waitForURL('**/auth/signup');
    devToken = await signUp(page, { name: 'Grace Hopper', email: `first-${stamp}@example.com`, onForm: true });
    expect(devToken).toBeTruthy();
    projectId = await createProject(page, { name: 'First App', subdomain: `first-${stamp}` });
    expect(page.url()).toBe(`${server.url}/project/${encodeURIComponent(projectId)}/dashboard`);
  });

  test('a table for the snippet, made on the Database screen', async () => {
    const { page } = b;
    await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Database' }).click();
    await page.getByRole('button', { name: 'Create Table' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create Table' });
    await dialog.getByLabel('Table name').fill('notes');
    await dialog.getByRole('group', { name: 'Column 1' }).getByLabel('Name').fill('body');
    await dialog.getByLabel('App access').selectOption('owner');
    await dialog.getByRole('button', { name: 'Create Table' }).click();
    await page.waitForURL(/\/database\/notes$/);
    // The snippet's folder lets signed-in end users upload (set through the API: the Storage screen has its own journey).
    await api(`/project/${projectId}/object-storage/rules/set`, { folder: 'uploads', access: 'signed_in' }, { authorization: `Bearer ${devToken}` });
  });

  test('Connect shows the API URL, the publishable key (not the secret one) and the snippets', async () => {
    const { page } = b;
    await page.getByRole('link', { name: 'Connect' }).click();
    await page.waitForURL(/\/connect$/);
    await page.getByTestId('connect-publishable-key').waitFor();
    apiUrl = (await page.getByTestId('connect-api-url').textContent()) ?? '';
    publishableKey = (await page.getByTestId('connect-publishable-key').textContent()) ?? '';
    expect(apiUrl).toBe(`${server.url}/api`);
    expect(publishableKey).toMatch(/^hb_publishable_/);
    expect(await page.getByText(/hb_secret_/).count()).toBe(0);
    await b.shot('connect');
  });

  /** Runs a pasted snippet as a module in a fresh page on the platform's origin; resolves to what it logged. */
  async function runPasted(snippet: string): Promise<string> {
    const sdk = fs.readFileSync(path.join(root, 'packages/client/dist/index.js'));
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>first app</title>
<script type="importmap">{"imports":{"@hostbase/client":"/first-app/hostbase-client.js"}}</script></head>
<body><script type="module">
${snippet}
document.title = 'done';
</script></body></html>`;
    const page: Page = await b.context.newPage();
    await page.route('**/first-app/**', (route) =>
      route.request().url().endsWith('.js')
        ? route.fulfill({ contentType: 'text/javascript', body: sdk })
        : route.fulfill({ contentType: 'text/html', body: html }),
    );
    const logged: string[] = [];
    const errors: string[] = [];
    page.on('console', (m) => (m.type() === 'log' ? logged.push(m.text()) : undefined));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/first-app/index.html');
    await page.waitForFunction(() => document.title === 'done', undefined, { timeout: 30_000 }).catch(() => undefined);
    await page.close();
    expect(errors).toEqual([]);
    return logged.join('\n');
  }

  async function ownerView() {
    const keys = await api(`/project/${projectId}/api-keys`, {}, { authorization: `Bearer ${devToken}` });
    const h = { 'X-Hostbase-Key': keys.secret_key };
    const rows = (await api('/db/v1/notes/select', {}, h)).rows as { body: string; owner_id: string }[];
    const list = await fetch(`${server.url}/api/storage/v1/objects?folder=uploads`, { headers: h });
    const files = ((await list.json()) as { files: { object_id: string }[] }).files;
    return { rows, files, h };
  }

  test('the SDK snippet, pasted into a page, signs up, inserts a row, uploads a file and reads it back', async () => {
    const snippet = (await b.page.getByTestId('snippet-SDK').textContent()) ?? '';
    expect(snippet).toContain(publishableKey);
    const logged = await runPasted(snippet);
    expect(logged).toContain('Hello, file');
    const { rows, files, h } = await ownerView();
    expect(rows.map((r) => r.body)).toEqual(['Hello from my app']);
    expect(rows[0].owner_id).toBeTruthy();
    expect(files).toHaveLength(1);
    const bytes = await fetch(`${server.url}/api/storage/v1/objects/${files[0].object_id}`, { headers: h });
    expect(await bytes.text()).toBe('Hello, file');
  });

  test('the fetch snippet, pasted the same way, does the same with no SDK', async () => {
    const snippet = (await b.page.getByTestId('snippet-fetch').textContent()) ?? '';
    expect(snippet).toContain(apiUrl);
    expect(snippet).toContain(`'X-Hostbase-Key'`);
    const logged = await runPasted(snippet);
    expect(logged).toContain('Hello, file');
    const { rows, files } = await ownerView();
    expect(rows.map((r) => r.body)).toEqual(['Hello from my app', 'Hello from my app']);
    expect(files).toHaveLength(2);
  });
});
