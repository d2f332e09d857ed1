// Account settings in two real browsers against the real server: a notification preference
// changed in one browser is what the other browser shows after signing in (it lives on the
// account, not in a browser's storage), and a new email address waits for its link.
// Screenshots go to artifacts/e2e/settings/.
import { chromiumInstalled, openBrowser, type Browser } from './helpers/browser';
import { startServer, type RunningServer } from './helpers/server';

const maybe = chromiumInstalled() ? describe : describe.skip;
jest.setTimeout(120_000);

maybe('settings journey', () => {
  let server: RunningServer;
  let first: Browser;
  let second: Browser;
  const stamp = Date.now().toString(36);
  const email = `settings-${stamp}@example.com`;
  const password = 'correct horse battery staple';

  beforeAll(async () => {
    server = await startServer();
    first = await openBrowser('settings', server.url);
    second = await openBrowser('settings-elsewhere', server.url);
    const res = await fetch(`${server.url}/api/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Ada Lovelace', email, password }) });
    expect(res.status).toBe(200);
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await server?.stop();
  });

  async function signIn(b: Browser) {
    const { page } = b;
    await page.goto('/auth/login');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/dashboard');
    await page.goto('/console/account');
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
  }
  const emailSwitch = (b: Browser) => b.page.getByRole('switch', { name: 'Email notifications' });
  const pushSwitch = (b: Browser) => b.page.getByRole('switch', { name: 'Push notifications' });

  test('notification preferences follow the account into another browser', async () => {
    await signIn(first);
    expect(await emailSwitch(first).getAttribute('aria-checked')).toBe('true');
    expect(await pushSwitch(first).getAttribute('aria-checked')).toBe('false');
    const saved = first.page.waitForResponse((r) => r.url().endsWith('/api/account-details') && r.request().postData()?.includes('notifications') === true);
    await emailSwitch(first).click();
    expect((await saved).status()).toBe(200);
    expect(await emailSwitch(first).getAttribute('aria-checked')).toBe('false');
    await first.shot('notifications-off');

    await signIn(second);
    expect(await emailSwitch(second).getAttribute('aria-checked')).toBe('false');
    expect(await pushSwitch(second).getAttribute('aria-checked')).toBe('false');
    await second.shot('notifications-elsewhere');
  });

  test('a new email address waits for the link mailed to it', async () => {
    const { page } = first;
    const next = `moved-${stamp}@example.com`;
    await page.getByLabel('Email', { exact: true }).fill(next);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Waiting for confirmation').waitFor();
    expect(await page.getByText('Waiting for confirmation').textContent()).toContain(next);
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(email);
    await first.shot('email-pending');
  });
});
