// The Email screen in a real browser against the real server (embedded PGlite, so the screen says
// the mail servers are not attached): add a domain, see its DNS records with copy buttons and the
// 48-hour note, verify it against a local authoritative DNS server (dns2, DNS_SERVERS pointing at
// it) first without and then with its records, add a mailbox and see it listed, active, with its
// quota (5 GiB). Screenshots go to artifacts/e2e/email/.
import { chromiumInstalled, openBrowser, type Browser } from './helpers/browser';
import { createProject, signUp } from './helpers/console';
import { startServer, type RunningServer } from './helpers/server';
import { startTestDns, type TestDns } from '../mail/dns-server';

const maybe = chromiumInstalled() ? describe : describe.skip;
jest.setTimeout(120_000);

const DOMAIN = 'journey.example';

maybe('email journey', () => {
  let server: RunningServer;
  let dns: TestDns;
  let b: Browser;
  const stamp = Date.now().toString(36);
  let projectId = '';
  let devToken = '';

  beforeAll(async () => {
    dns = await startTestDns();
    server = await startServer({ DNS_SERVERS: dns.server, PLATFORM_DOMAIN: 'hostbase.test', MAIL_HOST: 'mail.hostbase.test' });
    b = await openBrowser('email', server.url);
  });

  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await dns?.close();
  });

  test('a developer signs up, creates a project and opens the Email screen', async () => {
    const { page } = b;
    devToken = await signUp(page, { name: 'Radia Perlman', email: `mail-${stamp}@example.com` });
    projectId = await createProject(page, { name: 'Mail App', subdomain: `mail-${stamp}` });
    await page.goto(`/project/${encodeURIComponent(projectId)}/email`);
    await page.getByLabel('Domain name').waitFor();
    // Embedded PGlite: no mail servers can attach, and the screen says so.
    await page.getByRole('note').filter({ hasText: 'Mail servers not attached.' }).waitFor();
    await b.shot('add-domain');
  });

  test('adds a domain and sees its DNS records, copy buttons and the propagation note', async () => {
    const { page } = b;
    await page.getByLabel('Domain name').fill(DOMAIN);
    await page.getByRole('button', { name: /Add domain/i }).click();
    await page.getByRole('heading', { name: DOMAIN }).waitFor();
    const table = page.getByRole('table', { name: 'DNS records' });
    await table.waitFor();
    expect(await table.getByRole('row').count()).toBe(5); // header + MX, SPF, DMARC, DKIM
    await table.getByText('mail.hostbase.test').waitFor();
    await page.getByRole('button', { name: 'Copy MX value' }).waitFor();
    await page.getByText('DNS propagation can take up to 48 hours').waitFor();
    await b.shot('dns-records');
  });

  test('verifies once the records are served, after naming the missing ones', async () => {
    const { page } = b;
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: /MX/ }).waitFor();

    const res = await fetch(`${server.url}/api/project/${projectId}/smtp/smtp_domain_details`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${devToken}` },
      body: JSON.stringify({ project_id: projectId }),
    });
    const details = (await res.json()) as { dnsRecords: { type: string; host: string; value: string; priority?: number }[] };
    dns.publish(DOMAIN, details.dnsRecords);

    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('status').filter({ hasText: 'Domain verified' }).waitFor();
    await page.getByText('verified', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Mailboxes' }).waitFor();
    await page.getByRole('heading', { name: 'Mail server settings' }).waitFor();
    await b.shot('verified');
  });

  test('adds a mailbox and sees it listed, active, with its quota (5 GiB)', async () => {
    const { page } = b;
    const form = page.locator('form.add-mailbox');
    const create = form.getByRole('button', { name: 'Create Account' });
    expect(await create.isDisabled()).toBe(true);
    await form.getByLabel('Username').fill('alice');
    await form.getByLabel('Password').fill('Abcdefg1!');
    await create.click();
    const item = page.locator('li.mailbox', { hasText: `alice@${DOMAIN}` });
    await item.waitFor();
    await item.getByText('active', { exact: true }).waitFor();
    await item.getByText('Quota 5.00 GiB').waitFor();
    await b.shot('mailbox');
  });
});
