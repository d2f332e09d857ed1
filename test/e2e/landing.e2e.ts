// The marketing site delivered fast (a visitor's first impression), in Debian's Chromium against the real server: the
// landing and pricing pages arrive prerendered (their text in the HTML, their stylesheet inline,
// allowed by hash: no policy violation), every script comes compressed, nothing shifts as React
// takes the page over, and the links then navigate in the page. robots.txt and sitemap.xml are
// text and XML. Screenshots go to artifacts/e2e/landing/.
import { chromiumInstalled, openBrowser, type Browser } from './helpers/browser';
import { startServer, type RunningServer } from './helpers/server';

const maybe = chromiumInstalled() ? describe : describe.skip;
jest.setTimeout(120_000);

maybe('the landing page, cold', () => {
  let server: RunningServer;
  let b: Browser;

  beforeAll(async () => {
    server = await startServer();
    b = await openBrowser('landing', server.url);
  });

  afterAll(async () => {
    try {
      await b?.close();
    } finally {
      await server?.stop();
    }
  });

  test.each([
    ['/', 'Build your app'],
    ['/pricing', 'Simple, transparent pricing'],
  ])('%s is in its HTML, before any script runs, brotli-compressed', async (url, heading) => {
    const res = await fetch(server.url + url, { headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
    const html = await res.text(); // fetch decodes brotli
    expect(html).toContain(heading);
    expect(html).toMatch(/<style>[^<]+<\/style>/);
    expect(html).not.toContain('rel="stylesheet"');
  });

  test('the page paints without a layout shift, its scripts compressed, and React takes it over', async () => {
    const { page } = b;
    const scripts: { url: string; encoding?: string }[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.push({ url: r.url(), encoding: r.headers()['content-encoding'] });
    });
    await page.addInitScript(() => {
      const w = window as unknown as { __cls: number };
      w.__cls = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) w.__cls += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: /Build your app/ }).waitFor();
    // React's root on the container: the client rendered over the prerendered page.
    await page.waitForFunction(() => Object.keys(document.getElementById('root') ?? {}).some((k) => k.startsWith('__reactContainer')));
    await expect(page.title()).resolves.toBe('Hostbase: the open-source backend for developers');
    await b.shot('landing');

    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) expect([s.url, s.encoding]).toEqual([s.url, 'br']);
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBeLessThan(0.1);

    // A link now navigates in the page: the marker set on this document survives.
    await page.evaluate(() => ((window as unknown as { __same: boolean }).__same = true));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
    await page.getByRole('heading', { level: 1, name: 'Simple, transparent pricing' }).waitFor();
    expect(page.url()).toBe(server.url + '/pricing');
    expect(await page.evaluate(() => (window as unknown as { __same?: boolean }).__same)).toBe(true);
    await b.shot('pricing');
    expect(b.cspViolations()).toEqual([]);
  });

  test('a console route still gets the empty shell, then its own screen', async () => {
    const res = await fetch(server.url + '/auth/login');
    const html = await res.text();
    expect(html).toContain('<div id="root"></div>');
    await b.page.goto('/auth/login');
    await b.page.getByLabel('Email').waitFor();
    expect(b.cspViolations()).toEqual([]);
  });

  test('robots.txt and sitemap.xml are text and XML, not the app', async () => {
    const robots = await fetch(server.url + '/robots.txt');
    expect(robots.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await robots.text()).toContain(`Sitemap: ${server.url}/sitemap.xml`);
    const sitemap = await fetch(server.url + '/sitemap.xml');
    expect(sitemap.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(await sitemap.text()).toContain(`<loc>${server.url}/pricing</loc>`);
  });
});
