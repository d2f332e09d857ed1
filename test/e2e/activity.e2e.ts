// The project dashboard's Activity and Errors panels in a real browser: a new project's creation
// is in its activity, and a zip that can't be deployed shows up in its errors with its severity.
// Screenshots go to artifacts/e2e/activity/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromiumInstalled, openBrowser, type Browser } from './helpers/browser';
import { createProject, signUp } from './helpers/console';
import { startServer, type RunningServer } from './helpers/server';

const maybe = chromiumInstalled() ? describe : describe.skip;
jest.setTimeout(120_000);

maybe('activity and errors journey', () => {
  let server: RunningServer;
  let b: Browser;
  const stamp = Date.now().toString(36);

  beforeAll(async () => {
    server = await startServer();
    b = await openBrowser('activity', server.url);
  });

  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  test('create a project, fail a deploy, read both on the dashboard', async () => {
    const { page } = b;
    await signUp(page, { name: 'Activity Owner', email: `activity-${stamp}@example.com` });
    await createProject(page, { name: 'Shop', subdomain: `shop-${stamp}` });

    await page.getByRole('link', { name: 'Dashboard' }).click();
    const activity = page.getByRole('list', { name: 'Project activity' });
    await activity.getByText(`Created project "Shop" (shop-${stamp})`).waitFor();
    await page.getByText('No errors').waitFor();
    await b.shot('new-project');

    await page.getByRole('link', { name: 'Hosting' }).click();
    await page.getByRole('button', { name: 'Deploy site' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deploy site' });
    await dialog.getByLabel('React').check();
    const bad = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-e2e-activity-')), 'broken.zip');
    fs.writeFileSync(bad, 'this is not a zip archive');
    await dialog.locator('input[type=file]').setInputFiles(bad);
    await dialog.getByRole('button', { name: 'Deploy', exact: true }).click();
    await page.getByText('Failed to upload file.').first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Dashboard' }).click();
    const errors = page.getByRole('list', { name: 'Project errors' });
    const failed = errors.getByRole('listitem').first();
    await failed.getByText(/deployment failed/).waitFor();
    await failed.getByText('medium').waitFor();
    await b.shot('failed-deploy');
  });
});
