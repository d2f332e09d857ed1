// Two-factor sign-in in a real browser: turn MFA on in Settings (QR + secret, recovery codes),
// sign out, sign in with a code in the six boxes. Screenshots go to artifacts/e2e/mfa/.
import { generate } from 'otplib';
import { chromiumInstalled, openBrowser, type Browser } from './helpers/browser';
import { signUp } from './helpers/console';
import { startServer, type RunningServer } from './helpers/server';

const maybe = chromiumInstalled() ? describe : describe.skip;
jest.setTimeout(150_000);

/** A code from the next 30 s window, so it differs from one the server has already accepted. */
async function freshCode(secret: string, used: string[]): Promise<string> {
  for (;;) {
    const code = await generate({ secret });
    if (!used.includes(code)) return code;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

maybe('MFA journey', () => {
  let server: RunningServer;
  let b: Browser;
  const email = `mfa-${Date.now().toString(36)}@example.com`;
  const password = 'correct horse battery staple';
  let secret = '';
  const used: string[] = [];

  beforeAll(async () => {
    server = await startServer();
    b = await openBrowser('mfa', server.url);
  });

  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  test('turn on two-factor authentication in Settings', async () => {
    const { page } = b;
    await signUp(page, { name: 'Grace Hopper', email, password });

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('switch', { name: 'Two-factor authentication' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    secret = ((await page.locator('code.secret').textContent()) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    await b.shot('enroll');
    const code = await freshCode(secret, used);
    used.push(code);
    for (const [i, d] of [...code].entries()) await page.getByLabel(`Digit ${i + 1} of 6`).fill(d);
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('Two-factor authentication is on.').waitFor();
    expect(await page.locator('.recovery-codes li').count()).toBeGreaterThan(0);
    await b.shot('recovery-codes');
    await page.getByRole('button', { name: 'I saved them' }).click();
    expect(await page.getByRole('switch', { name: 'Two-factor authentication' }).getAttribute('aria-checked')).toBe('true');
  });

  test('sign in asks for the code, refuses a wrong one and accepts a right one', async () => {
    const { page } = b;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Hostbase' }).waitFor();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/auth/mfa');
    await page.getByText(/Code refreshes in 0:\d\d/).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    // Typing advances box by box; a wrong code is refused with the spec's message.
    const wrong = (await generate({ secret })) === '000000' ? '111111' : '000000';
    await page.getByLabel('Digit 1 of 6').focus();
    await page.keyboard.type(wrong);
    expect(await page.getByLabel('Digit 6 of 6').inputValue()).toBe(wrong[5]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid code. Please try again.' }).waitFor();
    await b.shot('mfa-wrong');

    // Paste fills all six boxes.
    const code = await freshCode(secret, used);
    await page.getByLabel('Digit 1 of 6').focus();
    await page.evaluate((c) => navigator.clipboard.writeText(c), code);
    await page.keyboard.press('Control+V');
    expect(await page.getByLabel('Digit 6 of 6').inputValue()).toBe(code[5]);
    await b.shot('mfa-code');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/console');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
    await b.shot('console');
  });
});
