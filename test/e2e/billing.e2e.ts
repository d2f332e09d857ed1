// A plan upgrade in a real browser against a keyless server (the test provider, where no money
// moves): sign up, Pro's Get Started on the pricing page, the test checkout, and Settings → Billing
// showing Pro, its limits and the paid order. Screenshots go to artifacts/e2e/billing/.
import { chromiumInstalled, openBrowser, type Browser } from './helpers/browser';
import { signUp } from './helpers/console';
import { startServer, type RunningServer } from './helpers/server';

const maybe = chromiumInstalled() ? describe : describe.skip;
jest.setTimeout(120_000);

maybe('plan upgrade journey', () => {
  let server: RunningServer;
  let b: Browser;
  const email = `billing-${Date.now().toString(36)}@example.com`;

  beforeAll(async () => {
    server = await startServer();
    b = await openBrowser('billing', server.url);
  });

  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  test('a visitor\'s Get Started leads to sign-up', async () => {
    const { page } = b;
    await page.goto('/pricing');
    await page.locator('article', { has: page.getByRole('heading', { name: 'Pro' }) }).getByRole('link', { name: 'Get Started' }).click();
    await page.waitForURL('**/auth/signup');
    await signUp(page, { name: 'Grace Hopper', email, onForm: true });
  });

  test("a signed-in developer's Get Started on Pro opens the test checkout; paying upgrades to Pro", async () => {
    const { page } = b;
    await page.goto('/pricing');
    await page.locator('article', { has: page.getByRole('heading', { name: 'Pro' }) }).getByRole('link', { name: 'Get Started' }).click();
    await page.waitForURL('**/console/account**');
    const dialog = page.getByRole('dialog', { name: 'Test payments: no money moves' });
    await dialog.waitFor();
    await b.shot('test-checkout');
    await dialog.getByRole('button', { name: 'Pay ₹999 (test)' }).click();
    await dialog.waitFor({ state: 'detached' });
    const billing = page.locator('#billing');
    await billing.getByText('Current plan:').locator('strong', { hasText: 'Pro' }).waitFor();
    await billing.getByText('0 of 20').waitFor();
    await billing.getByRole('cell', { name: 'paid' }).waitFor();
    await b.shot('billing-pro');
  });

  test('after a reload the plan is still Pro, and Hobby is offered as a switch', async () => {
    const { page } = b;
    await page.reload();
    const billing = page.locator('#billing');
    await billing.getByText('Current plan:').locator('strong', { hasText: 'Pro' }).waitFor();
    await billing.getByRole('button', { name: /Switch to Hobby/ }).waitFor();
  });
});
