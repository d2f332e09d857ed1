// Hosting in a real browser: deploy a zip from the project's Hosting page, deploy again, roll back,
// and see the site in the console's hosting list. Screenshots go to artifacts/e2e/hosting/.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromiumInstalled, openBrowser, type Browser } from './helpers/browser';
import { createProject, signUp } from './helpers/console';
import { startServer, type RunningServer } from './helpers/server';

const hasZip = (() => {
  try {
    execFileSync('zip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const maybe = chromiumInstalled() && hasZip ? describe : describe.skip;
jest.setTimeout(120_000);

function makeSite(dir: string, name: string, html: string): string {
  const src = fs.mkdtempSync(path.join(dir, 'site-'));
  fs.writeFileSync(path.join(src, 'index.html'), html);
  const zip = path.join(dir, name);
  execFileSync('zip', ['-q', zip, 'index.html'], { cwd: src });
  return zip;
}

maybe('hosting journey', () => {
  let server: RunningServer;
  let b: Browser;
  const stamp = Date.now().toString(36);
  let v1 = '';
  let v2 = '';

  beforeAll(async () => {
    server = await startServer();
    b = await openBrowser('hosting', server.url);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-e2e-sites-'));
    v1 = makeSite(dir, 'v1.zip', '<h1>version one</h1>');
    v2 = makeSite(dir, 'v2.zip', '<h1>version two</h1>');
  });

  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  test('deploy, redeploy and roll back', async () => {
    const { page } = b;
    await signUp(page, { name: 'Site Owner', email: `site-${stamp}@example.com` });
    await createProject(page, { name: 'Site', subdomain: `site-${stamp}` });
    await page.getByRole('link', { name: 'Hosting' }).click();
    await page.getByText('No deployments yet').waitFor();

    // Before any deployment the button deploys the first one; the type is detected unless picked.
    await page.getByRole('button', { name: 'Deploy site' }).click();
    const first = page.getByRole('dialog', { name: 'Deploy site' });
    expect(await first.getByLabel('Detect automatically').isChecked()).toBe(true);
    await first.getByRole('button', { name: 'Deploy', exact: true }).click();
    await first.getByText('Please upload a zip file.').waitFor();
    await first.getByLabel('React').check();
    await first.locator('input[type=file]').setInputFiles(v1);
    await b.shot('deploy-site');
    await first.getByRole('button', { name: 'Deploy', exact: true }).click();
    const toast = page.getByRole('status').filter({ hasText: 'File uploaded successfully!' });
    await toast.waitFor({ timeout: 30_000 });
    // The toast links to the live site.
    expect(await toast.getByRole('link').getAttribute('href')).toMatch(new RegExp(`^http://site-${stamp}\\.[a-z0-9.-]+:${new URL(server.url).port}$`));
    await first.waitFor({ state: 'detached' });
    await page.getByText('Active', { exact: true }).waitFor();
    // A static site has no process to measure.
    await page.getByText(/Not running: static site/).waitFor();
    expect(await page.getByText('CPU Usage').count()).toBe(0);
    await b.shot('deployed');

    await page.getByRole('button', { name: 'Redeploy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Redeploy' });
    await dialog.getByLabel('Vite').check();
    await dialog.locator('input[type=file]').setInputFiles(v2);
    await dialog.getByRole('button', { name: 'Deploy', exact: true }).click();
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });
    const rows = page.locator('table tbody tr');
    await expect(rows.count()).resolves.toBe(2);
    await page.getByRole('button', { name: 'Rollback' }).click();
    await page.getByRole('alertdialog', { name: 'Roll back' }).getByRole('button', { name: 'Make live' }).click();
    await page.getByRole('status').filter({ hasText: 'Deployment is live' }).waitFor();
    // The React deployment (the older row) is live again.
    await rows.filter({ hasText: 'React' }).getByText('live').waitFor();
    await b.shot('rolled-back');

    await page.goto('/console/hosting');
    const site = page.locator('.site-item', { hasText: `site-${stamp}` });
    await site.getByText('live').waitFor();
    await b.shot('sites');
  });
});
