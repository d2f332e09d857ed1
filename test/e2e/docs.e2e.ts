// The API reference (/api/docs) in a real browser under its own Content-Security-Policy:
// Swagger UI renders the contract and "Try it out" calls the API, with no policy violation
// (the shared browser helper fails any journey on one). Also proves that the helper does:
// an inline script injected into a console page is refused by the console's policy and
// closing that browser fails. Screenshots go to artifacts/e2e/docs/.
import { chromiumInstalled, openBrowser, type Browser } from './helpers/browser';
import { startServer, type RunningServer } from './helpers/server';

const maybe = chromiumInstalled() ? describe : describe.skip;
jest.setTimeout(120_000);

maybe('API reference and page policies', () => {
  let server: RunningServer;
  let b: Browser;

  beforeAll(async () => {
    server = await startServer();
    b = await openBrowser('docs', server.url);
  });

  afterAll(async () => {
    try {
      await b?.close();
    } finally {
      await server?.stop();
    }
  });

  test('Swagger UI renders the contract and runs a request under the docs policy', async () => {
    const { page } = b;
    const res = await page.goto('/api/docs');
    const csp = res?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const health = page.locator('.opblock', { hasText: '/health' }).first();
    await health.waitFor();
    await b.shot('docs');
    await health.locator('.opblock-summary').click();
    await health.getByRole('button', { name: 'Try it out' }).click();
    await health.getByRole('button', { name: 'Execute' }).click();
    await health.locator('.live-responses-table .response-col_status', { hasText: '200' }).first().waitFor();
    await b.shot('docs-try-it-out');
    expect(b.cspViolations()).toEqual([]);
  });

  test('the reference explains itself: summaries, and a Try it out body that changes nothing', async () => {
    const { page } = b;
    await page.goto('/api/docs');
    const health = page.locator('.opblock', { hasText: '/health' }).first();
    await health.waitFor();
    await expect(health.locator('.opblock-summary-description').textContent()).resolves.toBe('Check the platform and its database');
    const details = page.locator('.opblock-post', { hasText: '/account-details' }).first();
    await details.locator('.opblock-summary').click();
    await details.getByRole('button', { name: 'Try it out' }).click();
    // Swagger UI pre-fills the request body from the contract's example: {} only reads the account.
    const body = details.locator('textarea.body-param__text');
    await body.waitFor();
    expect(JSON.parse(await body.inputValue())).toEqual({});
    expect(b.cspViolations()).toEqual([]);
  });

  test('/docs: the CLI Tools and SDKs cards lead to their sections, and each quick start has a curl form', async () => {
    const { page } = b;
    await page.goto('/docs');
    await page.getByRole('link', { name: /CLI Tools/ }).click();
    await page.waitForURL(/#cli$/);
    await page.locator('#cli + p', { hasText: 'hostbase' }).waitFor();
    await page.getByRole('link', { name: /SDKs/ }).click();
    await page.waitForURL(/#sdk$/);
    const storage = page.getByRole('tablist', { name: 'Storage example' });
    await storage.getByRole('tab', { name: 'curl' }).click();
    const panel = page.locator('.code-tabs', { has: storage }).getByRole('tabpanel');
    await expect(panel.textContent()).resolves.toContain('X-Hostbase-Key');
    // The samples name this platform's address once the page has hydrated.
    await expect(panel.textContent()).resolves.toContain(`HB=${server.url}/api`);
    await b.shot('docs-page');
    expect(b.cspViolations()).toEqual([]);
    // The guides for running a platform (docs/ of the repository) are served beside the page.
    await page.getByRole('navigation', { name: 'Documentation sections' }).getByRole('link', { name: 'Running Hostbase' }).click();
    await page.waitForURL(/#running$/);
    const guide = await page.locator('#running ~ ul').getByRole('link', { name: 'Configuration' }).getAttribute('href');
    expect(guide).toBe('/docs/configuration.md');
    const res = await page.goto(guide!);
    expect(res?.headers()['content-type']).toBe('text/markdown; charset=utf-8');
    await page.getByText('Every variable is optional').waitFor();
    expect(b.cspViolations()).toEqual([]);
  });

  test('the console renders under its policy', async () => {
    const res = await b.page.goto('/auth/login');
    expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await b.page.getByLabel('Email').waitFor();
    expect(b.cspViolations()).toEqual([]);
  });

  test('an inline script is refused by the console policy, and the helper fails the journey', async () => {
    const other = await openBrowser('docs-violation', server.url);
    let closed = false;
    try {
      await other.page.goto('/');
      const ran = await other.page.evaluate(() => {
        const w = window as unknown as { injected?: boolean };
        const s = document.createElement('script');
        s.textContent = 'window.injected = true';
        document.body.appendChild(s);
        return w.injected === true;
      });
      expect(ran).toBe(false);
      for (let i = 0; i < 50 && other.cspViolations().length === 0; i++) await other.page.waitForTimeout(100);
      expect(other.cspViolations().join('\n')).toMatch(/script-src/);
      closed = true;
      await expect(other.close()).rejects.toThrow(/Content-Security-Policy violations/);
    } finally {
      if (!closed) await other.close().catch(() => undefined);
    }
  });
});
