// The steps most journeys start with, done as a developer does them in the console: sign up on
// /auth/signup, then create a project from the project list (which opens it). One copy, so a change to
// those screens is followed in one place; a journey that looks closer at a step (the strength
// meter, the project card) does so through the hooks.
import type { Locator, Page } from 'playwright-core';

/** A password the platform's rules accept (long, not a common one, unrelated to the e-mail). */
export const DEV_PASSWORD = 'correct horse battery staple';

export interface SignUp {
  name: string;
  email: string;
  password?: string;
  /** The page is on the sign-up form already (a link led there): don't navigate. */
  onForm?: boolean;
  /** Runs with the form filled, before "Create account". */
  beforeSubmit?: () => Promise<void>;
}

/** Signs a developer up; resolves on the console with the token the console keeps. */
export async function signUp(page: Page, o: SignUp): Promise<string> {
  if (!o.onForm) await page.goto('/auth/signup');
  await page.getByLabel('Full name').fill(o.name);
  await page.getByLabel('Email').fill(o.email);
  await page.getByLabel('Password').fill(o.password ?? DEV_PASSWORD);
  await o.beforeSubmit?.();
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/console');
  return (await page.evaluate(() => localStorage.getItem('token'))) ?? '';
}

export interface NewProject {
  name: string;
  subdomain: string;
  description?: string;
  /** Runs with the dialog filled and the subdomain found free, before "Create Project". */
  beforeCreate?: (dialog: Locator) => Promise<void>;
  /** Runs with the new project's card on the list, before it is opened. */
  onCard?: (card: Locator) => Promise<void>;
}

/** Creates a project from the console's project list, which opens its dashboard; resolves to its id. */
export async function createProject(page: Page, o: NewProject): Promise<string> {
  await page.getByRole('button', { name: 'New Project' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New Project' });
  await dialog.getByLabel('Project name').fill(o.name);
  if (o.description) await dialog.getByLabel('Description').fill(o.description);
  await dialog.getByLabel('Subdomain').fill(o.subdomain);
  await dialog.getByText('Subdomain is available').waitFor();
  await o.beforeCreate?.(dialog);
  await dialog.getByRole('button', { name: 'Create Project' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.waitForURL(/\/project\/[^/]+\/dashboard$/);
  const id = decodeURIComponent(page.url().split('/project/')[1].split('/')[0]);
  if (o.onCard) {
    // Back on the list to look at the new card, then into the project again through it.
    await page.getByRole('link', { name: 'Projects' }).first().click();
    const card = page.locator('.project-card', { hasText: o.name });
    await card.waitFor();
    await o.onCard(card);
    await card.getByRole('link').click();
    await page.waitForURL(/\/project\/[^/]+\/dashboard$/);
  }
  return id;
}
