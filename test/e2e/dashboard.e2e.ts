// The account dashboard in a real browser against the real server: what an app did with the
// project's keys (calls, an upload, end users signing up) shows on /dashboard once the server has
// flushed its counts; the range selector asks for another range; a quick action leads to the
// account screen. Screenshots go to artifacts/e2e/dashboard/.
import { chromiumInstalled, openBrowser, type Browser } from './helpers/browser';
import { startServer, type RunningServer } from './helpers/server';

const maybe = chromiumInstalled() ? describe : describe.skip;
jest.setTimeout(120_000);

maybe('dashboard journey', () => {
  let server: RunningServer;
  let b: Browser;
  const stamp = Date.now().toString(36);
  let token = '';

  const api = async (p: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}/api${p}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };

  beforeAll(async () => {
    server = await startServer();
    b = await openBrowser('dashboard', server.url);
  });

  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  test('an app uses the project; the dashboard shows what it did', async () => {
    token = (await api('/register', { name: 'Grace Hopper', email: `dash-${stamp}@example.com`, password: 'correct horse battery staple' })).token;
    const auth = { authorization: `Bearer ${token}` };
    const project = (await api('/create-project', { projectName: 'Dash', subdomain: `dash-${stamp}` }, auth)).project;
    const bucketKey = (await api(`/project/${project.id}/bucket-details`, {}, auth)).api_key;
    const authKey = (await api(`/project/${project.id}/authentication-details`, {}, auth)).api_key;

    // Two end users sign up; the app lists its files five times and uploads 3 KiB.
    for (const n of [1, 2]) await api('/auth/v1/signup', { email: `user${n}-${stamp}@example.com`, password: 'correct horse battery staple' }, { 'x-api-key': authKey });
    for (let i = 0; i < 5; i++) expect((await fetch(`${server.url}/api/storage/v1/objects`, { headers: { 'x-api-key': bucketKey } })).status).toBe(200);
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(3072, 7)], { type: 'application/octet-stream' }), 'data.bin');
    expect((await fetch(`${server.url}/api/storage/v1/objects`, { method: 'POST', headers: { 'x-api-key': bucketKey }, body: form })).status).toBe(200);

    const { page } = b;
    await page.goto('/');
    await page.evaluate((t) => localStorage.setItem('token', t), token);
    await page.goto('/dashboard');
    const stats = page.getByRole('list', { name: 'Account usage' });
    await stats.waitFor();
    await stats.getByRole('listitem').filter({ hasText: 'Storage Used' }).getByText('3.00 KiB').waitFor();
    await stats.getByRole('listitem').filter({ hasText: 'Active Users' }).getByText('2', { exact: true }).waitFor();
    await page.getByText('Hobby plan').waitFor();
    await page.getByText('3.00 KiB of 5.00 GiB').waitFor();
    // The calls reach the chart once the server has flushed its counts (every few seconds):
    // 5 listings + 1 upload + 2 sign-ups with the keys, and the console's reads naming the project.
    const chartTitle = async () => (await page.locator('svg.usage-chart-svg > title').first().textContent()) ?? '';
    const requestsIn = (title: string) => Number(/: (\d+) requests/.exec(title)?.[1] ?? 0);
    for (let i = 0; i < 20 && requestsIn(await chartTitle()) < 8; i++) {
      await page.waitForTimeout(1000);
      await page.reload();
      await page.locator('svg.usage-chart-svg').first().waitFor();
    }
    expect(await chartTitle()).toMatch(/^API requests per hour: \d+ requests, 0 errors$/);
    expect(requestsIn(await chartTitle())).toBeGreaterThanOrEqual(8);
    expect(await page.getByRole('table', { name: 'Active users per day' }).textContent()).toMatch(/2$/);
    await b.shot('dashboard');

    await page.getByLabel('Period').selectOption({ label: '30 days' });
    await page.getByRole('img', { name: /^API requests per day: / }).waitFor();
    await b.shot('dashboard-30-days');

    await page.getByRole('region', { name: 'Quick actions' }).getByRole('link', { name: 'Billing' }).click();
    await page.waitForURL('**/console/account#billing-title');
    await page.getByRole('heading', { name: 'Billing', exact: true }).waitFor();
  });
});
