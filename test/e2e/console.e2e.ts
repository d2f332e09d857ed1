// The developer's journey through the console in a real browser against the real server:
// sign up, log in, create a project, copy a key, upload an image and see its preview, share,
// delete, add an end user, page through users, log out. Screenshots go to artifacts/e2e/console/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromiumInstalled, openBrowser, type Browser } from './helpers/browser';
import { createProject, signUp } from './helpers/console';
import { startServer, type RunningServer } from './helpers/server';

const maybe = chromiumInstalled() ? describe : describe.skip;
jest.setTimeout(120_000);

// A real 16x16 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);

maybe('console journey', () => {
  let server: RunningServer;
  let b: Browser;
  const stamp = Date.now().toString(36);
  const email = `dev-${stamp}@example.com`;
  const password = 'correct horse battery staple';
  const subdomain = `e2e-${stamp}`;
  let projectId = '';
  let imagePath = '';

  beforeAll(async () => {
    server = await startServer();
    b = await openBrowser('console', server.url);
    imagePath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-e2e-files-')), 'cat.png');
    fs.writeFileSync(imagePath, PNG);
  });

  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  test('the landing page links to the console and the docs', async () => {
    const { page } = b;
    await page.goto('/');
    await page.getByRole('link', { name: 'Start Building' }).waitFor();
    await page.getByRole('link', { name: 'View Documentation' }).waitFor();
    await b.shot('landing');
    await page.goto('/no-such-page');
    await page.getByRole('heading', { name: 'Unexpected Application Error!' }).waitFor();
  });

  test('the console sends a visitor without a session to the login page', async () => {
    await b.page.goto('/console');
    await b.page.waitForURL('**/auth/login');
  });

  test('sign up lands on the empty projects list', async () => {
    const { page } = b;
    await signUp(page, {
      name: 'Ada Lovelace',
      email,
      password,
      beforeSubmit: async () => {
        // The strength meter (zxcvbn-ts, loaded with this screen) judges what is typed.
        await page.getByLabel('Password').fill('password');
        await page.getByRole('meter', { name: 'Strength' }).and(page.locator('[aria-valuetext="Very weak"]')).waitFor();
        await page.getByLabel('Password').fill(password);
        await page.getByRole('meter', { name: 'Strength' }).and(page.locator('[aria-valuetext="Very strong"]')).waitFor();
        await b.shot('signup');
      },
    });
    await page.getByText('No projects yet').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
    // The device token for this account is kept for later sign-ins.
    expect(await page.evaluate((e) => JSON.parse(localStorage.getItem('device_tokens') ?? '{}')[e], email.toLowerCase())).toMatch(/^[\w-]{40,}$/);
    await b.shot('projects-empty');
  });

  test('sign out, then sign in again', async () => {
    const { page } = b;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Hostbase' }).waitFor();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.form-error').waitFor();
    await b.shot('login-failed');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  });

  test('create a project with a checked subdomain', async () => {
    const { page } = b;
    await page.goto('/console');
    projectId = await createProject(page, {
      name: 'E2E Demo',
      description: 'Made by the browser journey',
      subdomain,
      beforeCreate: () => b.shot('new-project'),
      onCard: async (card) => {
        expect(await card.locator('.project-domain').textContent()).toContain(subdomain);
        await b.shot('projects');
      },
    });
    await page.waitForURL(/\/project\/[^/]+\/dashboard$/);
    expect(projectId).toBeTruthy();
  });

  test('copy the secret key; the tick goes away after 2 s', async () => {
    const { page } = b;
    await page.getByRole('link', { name: 'API Keys' }).click();
    await page.waitForURL(/\/api-keys$/);
    await page.getByRole('button', { name: 'Show Secret key' }).click();
    const row = page.locator('.key-row', { hasText: 'Secret key' });
    const key = (await row.locator('code').textContent())?.trim() ?? '';
    expect(key.length).toBeGreaterThan(10);
    await page.getByRole('button', { name: 'Copy Secret key' }).click();
    await page.getByRole('button', { name: 'Secret key copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await b.shot('api-keys');
    await page.getByRole('button', { name: 'Copy Secret key' }).waitFor({ timeout: 4000 });
  });

  test('upload an image, see its preview, share it, delete it', async () => {
    const { page } = b;
    await page.getByRole('link', { name: 'Storage' }).click();
    await page.getByText('No files yet').waitFor();
    await page.getByRole('button', { name: 'Upload' }).first().click();
    const upload = page.getByRole('dialog', { name: 'Upload files' });
    await upload.locator('input[type=file]').setInputFiles(imagePath);
    await upload.getByRole('button', { name: 'Upload' }).click();
    await upload.getByText('Uploaded').waitFor();
    await b.shot('upload');
    await upload.getByRole('button', { name: 'Close', exact: true }).click();

    const row = page.getByRole('row', { name: /cat\.png/ });
    await row.waitFor();
    await b.shot('storage');

    await row.getByRole('button', { name: 'Preview cat.png' }).click();
    const preview = page.getByRole('dialog', { name: 'cat.png' });
    const img = preview.getByRole('img', { name: 'Preview of cat.png' });
    await img.waitFor();
    await page.waitForFunction(() => {
      const el = document.querySelector<HTMLImageElement>('img.preview-img');
      return !!el && el.complete && el.naturalWidth === 16;
    });
    await b.shot('preview');
    // Private until shared: the preview came through a signed URL, not a share link.
    expect(await img.getAttribute('src')).toContain('/api/storage/v1/object/sign/');
    await preview.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Share link copied to clipboard!' }).waitFor();
    const first = await page.evaluate(() => navigator.clipboard.readText());
    expect(first).toContain('/s3/object-storage/');
    expect((await page.request.get(first)).status()).toBe(200);
    // Stop sharing: the link ends at once; sharing again makes a new one.
    await preview.getByRole('button', { name: 'Stop sharing' }).click();
    await page.getByRole('status').filter({ hasText: 'Sharing stopped' }).waitFor();
    expect((await page.request.get(first)).status()).toBe(404);
    await preview.getByRole('button', { name: 'Share', exact: true }).click();
    await preview.getByRole('button', { name: 'Stop sharing' }).waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).not.toBe(first);
    const shared = await page.request.get(link);
    expect(shared.status()).toBe(200);
    expect(Buffer.from(await shared.body()).equals(PNG)).toBe(true);
    const download = await page.request.get(await preview.getByRole('link', { name: 'Download' }).getAttribute('href') ?? '');
    expect(download.headers()['content-disposition'] ?? '').toMatch(/attachment/);
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'detached' });

    await row.getByRole('button', { name: 'Delete cat.png' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete file' });
    await b.shot('delete-file');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No files yet').waitFor();
    expect((await page.request.get(link)).status()).toBe(404);
  });

  test('add an end user, then page through 101 users', async () => {
    const { page } = b;
    await page.getByRole('link', { name: 'Authentication' }).click();
    await page.getByText('No users yet').waitFor();
    await page.getByRole('button', { name: 'Add User' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.getByLabel('Email').fill('first-user@example.com');
    await dialog.getByLabel('Password').fill('tangerine mosaic 42');
    await dialog.getByRole('button', { name: 'Add User' }).click();
    await page.getByRole('cell', { name: 'first-user@example.com', exact: true }).waitFor();
    await page.getByText('Showing 1 to 1 of 1 users').waitFor();
    await b.shot('users-one');

    await page.getByRole('button', { name: 'Reset password of first-user@example.com' }).click();
    await page.getByRole('alertdialog', { name: 'Reset password' }).getByRole('button', { name: 'Send reset email' }).click();
    await page.getByRole('status').filter({ hasText: 'Password reset email sent' }).waitFor();

    // 100 more through the same console endpoint, so there is a second page.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    for (let i = 0; i < 100; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, k) =>
          page.request
            .post(`/api/project/${encodeURIComponent(projectId)}/auth/add_user`, {
              headers: { Authorization: `Bearer ${token}` },
              data: { email: `user-${String(i + k).padStart(3, '0')}@example.com`, password: 'tangerine mosaic 42' },
            })
            .then((r) => expect(r.status()).toBe(200)),
        ),
      );
    }
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByText('Showing 1 to 100 of 101 users').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Showing 101 to 101 of 101 users').waitFor();
    await b.shot('users-page-2');
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText('Showing 1 to 100 of 101 users').waitFor();

    // Delete the first user on this page.
    const victim = ((await page.locator('.user-email').first().textContent()) ?? '').trim();
    await page.getByRole('button', { name: `Delete ${victim}`, exact: true }).click();
    await page.getByRole('alertdialog', { name: 'Delete user' }).getByRole('button', { name: 'Delete user' }).click();
    await page.getByText('Showing 1 to 100 of 100 users').waitFor();
    await expect(page.getByRole('cell', { name: victim, exact: true }).count()).resolves.toBe(0);
  });

  test('phone width: the console still fits', async () => {
    const { page } = b;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/project/${encodeURIComponent(projectId)}/api-keys`);
    await page.getByRole('heading', { name: 'API Keys' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await b.shot('phone-api-keys');
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  test('log out ends the session', async () => {
    const { page } = b;
    await page.goto('/console');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/auth/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.goto('/console');
    await page.waitForURL('**/auth/login');
    await b.shot('signed-out');
  });
});
