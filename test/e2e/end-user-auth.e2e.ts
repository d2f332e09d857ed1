// A project's end user in a real browser against the real server: the developer adds the user
// in the console and sets the auth settings (allowed origins, app API), clicks reset password;
// the user opens the link from the mail (read from the outbox) on the platform's end-user page,
// sets a new password and signs in through the app API with the project's auth API key; then
// the same for the email verification link. Screenshots go to artifacts/e2e/end-user-auth/.
import { chromiumInstalled, openBrowser, type Browser } from './helpers/browser';
import { createProject, signUp } from './helpers/console';
import { waitForMail } from './helpers/mail';
import { startServer, type RunningServer } from './helpers/server';

const maybe = chromiumInstalled() ? describe : describe.skip;
jest.setTimeout(120_000);

maybe('end-user auth journey', () => {
  let server: RunningServer;
  let b: Browser;
  const stamp = Date.now().toString(36);
  const devEmail = `dev-${stamp}@example.com`;
  const devPassword = 'correct horse battery staple';
  const userEmail = `reader-${stamp}@example.com`;
  const oldPassword = 'first end-user password';
  const newPassword = 'second end-user password';
  let projectId = '';
  let devToken = '';
  let authKey = '';
  let resetLink = '';
  let accessToken = '';

  const api = (p: string, init: { body?: unknown; headers?: Record<string, string>; method?: string } = {}) =>
    fetch(`${server.url}/api${p}`, {
      method: init.method ?? 'POST',
      headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  beforeAll(async () => {
    server = await startServer();
    b = await openBrowser('end-user-auth', server.url);
  });

  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  test('a developer signs up and creates a project', async () => {
    const { page } = b;
    devToken = await signUp(page, { name: 'Katherine Johnson', email: devEmail, password: devPassword });
    expect(devToken).toBeTruthy();

    projectId = await createProject(page, { name: 'Reader App', subdomain: `reader-${stamp}` });
    await page.getByRole('link', { name: 'Authentication' }).first().click();
    await page.waitForURL(/\/project\/[^/]+\/authentication$/);
    expect(projectId).toBeTruthy();
  });

  test('Settings: allowed origins are checked, saved and open CORS for them; the app API base is copied', async () => {
    const { page } = b;
    const panel = page.getByRole('region', { name: 'Settings' });
    const origins = panel.getByLabel('Allowed CORS origins');
    await origins.waitFor();
    expect(await origins.inputValue()).toBe('');

    // Closed by default: a browser on another origin gets no CORS grant.
    const closed = await fetch(`${server.url}/api/auth/v1/signin`, { method: 'OPTIONS', headers: { Origin: 'https://reader.example.com' } });
    expect(closed.headers.get('access-control-allow-origin')).toBeNull();

    await origins.fill('https://reader.example.com/app');
    await panel.getByRole('button', { name: 'Save settings' }).click();
    await panel.getByText('Line 1: "https://reader.example.com/app" is not an origin like https://app.example.com').waitFor();
    await origins.fill('https://reader.example.com\nhttp://localhost:5173/');
    await panel.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved' }).waitFor();
    await page.waitForFunction(() => (document.querySelector('textarea') as HTMLTextAreaElement | null)?.value === 'https://reader.example.com\nhttp://localhost:5173');

    const open = await fetch(`${server.url}/api/auth/v1/signin`, { method: 'OPTIONS', headers: { Origin: 'https://reader.example.com' } });
    expect(open.headers.get('access-control-allow-origin')).toBe('https://reader.example.com');

    await panel.getByRole('button', { name: 'Copy App API base URL' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${server.url}/api/auth/v1`);
    await panel.scrollIntoViewIfNeeded();
    await b.shot('auth-settings');

    // Saved for real: a reload reads them back.
    await page.reload();
    await page.getByRole('region', { name: 'Settings' }).getByLabel('Allowed CORS origins').waitFor();
    expect(await page.getByRole('region', { name: 'Settings' }).getByLabel('Allowed CORS origins').inputValue()).toBe(
      'https://reader.example.com\nhttp://localhost:5173',
    );
  });

  test('add an end user and send them a password reset mail', async () => {
    const { page } = b;
    await page.getByRole('button', { name: 'Add User' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.getByLabel('Email').fill(userEmail);
    await dialog.getByLabel('Password').fill(oldPassword);
    await dialog.getByRole('button', { name: 'Add User' }).click();
    await page.getByRole('cell', { name: userEmail, exact: true }).waitFor();

    await page.getByRole('button', { name: `Reset password of ${userEmail}` }).click();
    await page.getByRole('alertdialog', { name: 'Reset password' }).getByRole('button', { name: 'Send reset email' }).click();
    await page.getByRole('status').filter({ hasText: 'Password reset email sent' }).waitFor();
    await b.shot('reset-sent');

    const mail = await waitForMail(server.dataDir, userEmail, /^Reset your password for Reader App$/);
    resetLink = mail.links.find((l) => l.includes('/reset-password?token=')) ?? '';
    expect(resetLink.startsWith(`${server.url}/auth/end-user/reset-password?token=`)).toBe(true);
    expect(new URL(resetLink).searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  test('the end user opens the link and sets a new password', async () => {
    const { page } = b;
    await page.goto(resetLink);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByText('Secured by Hostbase').waitFor();
    // Neutral page: no platform navigation.
    expect(await page.getByRole('link', { name: 'Console' }).count()).toBe(0);
    await b.shot('end-user-reset-form');

    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Confirm new password').fill('short');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('alert').filter({ hasText: 'Password must be at least 8 characters' }).waitFor();

    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();
    expect((await page.getByRole('status').filter({ hasText: 'Your password' }).textContent())?.trim()).toBe(
      'Your password has been changed. You can sign in to the app with your new password.',
    );
    await b.shot('end-user-reset-done');

    // The link is single-use: a second try shows the server's message.
    await page.goto(resetLink);
    await page.getByLabel('New password', { exact: true }).fill('a third password');
    await page.getByLabel('Confirm new password').fill('a third password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('alert').filter({ hasText: 'This reset link is invalid or has expired' }).waitFor();
    await b.shot('end-user-reset-used');
  });

  test('the app signs the user in through the app API with the new password only', async () => {
    const details = await api(`/project/${encodeURIComponent(projectId)}/authentication-details`, { headers: { Authorization: `Bearer ${devToken}` } });
    expect(details.status).toBe(200);
    authKey = ((await details.json()) as { api_key: string }).api_key;
    expect(authKey).toBeTruthy();

    const old = await api('/auth/v1/signin', { headers: { 'x-api-key': authKey }, body: { email: userEmail, password: oldPassword } });
    expect(old.status).toBe(401);
    const res = await api('/auth/v1/signin', { headers: { 'x-api-key': authKey }, body: { email: userEmail, password: newPassword } });
    expect(res.status).toBe(200);
    const session = (await res.json()) as { access_token: string; refresh_token: string; user: { email: string; email_verified: boolean } };
    expect(session.access_token).toBeTruthy();
    expect(session.refresh_token).toBeTruthy();
    expect(session.user.email).toBe(userEmail);
    expect(session.user.email_verified).toBe(false);
    accessToken = session.access_token;
  });

  test('the verification link confirms the address on the end-user page', async () => {
    const { page } = b;
    const sent = await api('/auth/v1/verify/send', { headers: { 'x-api-key': authKey, Authorization: `Bearer ${accessToken}` } });
    expect(sent.status).toBe(200);
    const mail = await waitForMail(server.dataDir, userEmail, /^Verify your email for Reader App$/);
    const link = mail.links.find((l) => l.includes('/verify-email?token=')) ?? '';
    expect(link.startsWith(`${server.url}/auth/end-user/verify-email?token=`)).toBe(true);

    await page.goto(link);
    await page.getByRole('heading', { name: 'Email verified' }).waitFor();
    await b.shot('end-user-verified');

    const me = await api('/auth/v1/user', { method: 'GET', headers: { 'x-api-key': authKey, Authorization: `Bearer ${accessToken}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email_verified: boolean }).email_verified).toBe(true);

    // Used once: opening it again shows the server's message.
    await page.goto(link);
    await page.getByRole('heading', { name: 'Email not verified' }).waitFor();
    await page.getByText('This verification link is invalid or has expired').waitFor();
  });

  test('phone width: the end-user page fits', async () => {
    const { page } = b;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/auth/end-user/reset-password?token=missing');
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await b.shot('phone-end-user-reset');
    await page.setViewportSize({ width: 1280, height: 860 });
  });
});
