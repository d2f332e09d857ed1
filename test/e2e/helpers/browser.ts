// Debian's Chromium driven by playwright-core, with a fresh profile per journey.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { root } from './server';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = path.join(root, 'artifacts', 'e2e');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Saves a full-page screenshot under artifacts/e2e/<journey>/. */
  shot: (name: string) => Promise<void>;
  /** Content-Security-Policy violations reported so far (close() fails the journey on any). */
  cspViolations: () => string[];
  close: () => Promise<void>;
}

export async function openBrowser(journey: string, baseURL: string): Promise<Browser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-chromium-'));
  const dir = path.join(ARTIFACTS, journey);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    baseURL,
    viewport: { width: 1280, height: 860 },
    acceptDownloads: true,
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  // Any Content-Security-Policy violation in any page of the journey fails it: Chromium reports
  // each one on the console ("Refused to load/execute/apply … violates the following Content
  // Security Policy directive …"), also for popups and report-only policies.
  const violations: string[] = [];
  context.on('console', (msg) => {
    if (/content security policy/i.test(msg.text())) violations.push(`${msg.page()?.url() ?? '?'}: ${msg.text()}`);
  });
  let n = 0;
  return {
    context,
    page,
    cspViolations: () => [...violations],
    shot: async (name) => {
      n += 1;
      await page.screenshot({ path: path.join(dir, `${String(n).padStart(2, '0')}-${name}.png`), fullPage: true });
    },
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
      if (problems.length) throw new Error(`uncaught errors in the page:\n${problems.join('\n')}`);
      if (violations.length) throw new Error(`Content-Security-Policy violations:\n${violations.join('\n')}`);
    },
  };
}

export const chromiumInstalled = () => fs.existsSync(CHROMIUM);
