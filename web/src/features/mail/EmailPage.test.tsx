import { fireEvent, screen, within } from '@testing-library/react';
import { Outlet, Route, Routes } from 'react-router-dom';
import { mockFetch, renderWithProviders, type FakeAnswer } from '../../test/utils';
import EmailPage from './EmailPage';
import { MAIL_SERVERS_NOT_ATTACHED } from './MailServersNotice';

beforeEach(() => localStorage.setItem('token', 'dev-token'));

const DETAILS = '/api/project/p1/smtp/smtp_domain_details';
const ACCOUNTS = '/api/project/p1/smtp/accounts';
const RECORDS = [
  { type: 'MX', host: '@', value: 'mail.hostbase.test', priority: 10, ttl: 3600, purpose: 'mail' },
  { type: 'TXT', host: '@', value: 'v=spf1 mx -all', ttl: 3600, purpose: 'SPF' },
];
const GIB5 = 5 * 1024 ** 3;

function renderPage(details: object, more: Record<string, FakeAnswer> = {}) {
  const fetchMock = mockFetch((path) => (path === DETAILS ? { body: details } : (more[path] ?? { status: 404, body: { message: 'Not Found' } })));
  renderWithProviders(
    <Routes>
      <Route element={<Outlet context={{ projectId: 'p1' }} />}>
        <Route path="*" element={<EmailPage />} />
      </Route>
    </Routes>,
  );
  return fetchMock;
}

const noDomain = { domain: null, date: null, verified: false, dnsRecords: [] };
const pending = { domain: 'shop.example', date: '2026-11-20T10:00:00.000Z', verified: false, dnsRecords: RECORDS };
const verified = { ...pending, verified: true };

describe('mail servers notice', () => {
  it('says the mail servers are not attached when the server says so (embedded PGlite)', async () => {
    renderPage({ ...noDomain, mail_servers_attached: false });
    expect(await screen.findByLabelText('Domain name')).toBeTruthy();
    const note = screen.getByRole('note');
    expect(note.textContent).toContain('Mail servers not attached.');
    expect(note.textContent).toContain(MAIL_SERVERS_NOT_ATTACHED);
    expect(note.textContent).toContain('"Hosted e-mail" in docs/mail.md');
  });

  it('is absent when the mail servers are attached', async () => {
    renderPage({ ...pending, mail_servers_attached: true });
    expect(await screen.findByRole('heading', { name: 'shop.example' })).toBeTruthy();
    expect(screen.queryByRole('note')).toBeNull();
  });
});

describe('the current domain', () => {
  it('before verification: Verify, Remove, no webmail link without WEBMAIL_URL, the DNS table with copy buttons and the 48-hour note, no mailboxes', async () => {
    renderPage({ ...pending, mail_servers_attached: true });
    expect(await screen.findByRole('button', { name: /Verify/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Remove/ })).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Webmail/ })).toBeNull();
    expect(screen.getByText(/DNS propagation can take up to 48 hours/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy MX value' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy TXT host' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Mailboxes' })).toBeNull();
  });

  it('links to the webmail when the server gives its address', async () => {
    renderPage({ ...pending, webmail_url: 'https://webmail.hostbase.test', mail_servers_attached: true });
    expect(((await screen.findByRole('link', { name: /Webmail/ })) as HTMLAnchorElement).href).toBe('https://webmail.hostbase.test/');
  });

  it('asks before removing the domain', async () => {
    renderPage({ ...pending, mail_servers_attached: true });
    fireEvent.click(await screen.findByRole('button', { name: /Remove/ }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain('shop.example');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});

describe('after verification', () => {
  const accounts = {
    [ACCOUNTS]: {
      body: [
        { email: 'alice@shop.example', created: '2026-11-21T10:00:00.000Z', status: 'active', active: true, quota: GIB5 },
        { email: 'bob@shop.example', created: '2026-11-21T11:00:00.000Z', status: 'unactive', active: false, quota: GIB5 },
      ],
    },
  };

  it('lists the mailboxes with their badges and quota in MB, and the server settings', async () => {
    renderPage({ ...verified, mail_servers_attached: true }, accounts);
    const alice = (await screen.findByText('alice@shop.example')).closest('li')!;
    expect(within(alice).getByText('active')).toBeTruthy();
    expect(within(alice).getByText('Quota 5.00 GiB')).toBeTruthy();
    expect(within(screen.getByText('bob@shop.example').closest('li')!).getByText('unactive')).toBeTruthy();
    const settings = screen.getByRole('heading', { name: 'Mail server settings' }).closest('section')!;
    expect(settings.textContent).toContain('Port 993 · SSL/TLS');
    expect(settings.textContent).toContain('Port 465 · SSL/TLS');
    expect(settings.textContent).toContain('Your full email address');
  });

  it('keeps Create Account disabled while the username or the password is empty', async () => {
    renderPage({ ...verified, mail_servers_attached: true }, accounts);
    const create = (await screen.findByRole('button', { name: 'Create Account' })) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'carol' } });
    expect(create.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Abcdefg1!' } });
    expect(create.disabled).toBe(false);
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: '' } });
    expect(create.disabled).toBe(true);
  });

  it('edits one password at a time inline, and Cancel closes the edit', async () => {
    renderPage({ ...verified, mail_servers_attached: true }, accounts);
    const alice = (await screen.findByText('alice@shop.example')).closest('li')!;
    fireEvent.click(within(alice).getByRole('button', { name: /Change password/ }));
    expect(screen.getByLabelText('New password for alice@shop.example')).toBeTruthy();
    fireEvent.click(within(screen.getByText('bob@shop.example').closest('li')!).getByRole('button', { name: /Change password/ }));
    expect(screen.queryByLabelText('New password for alice@shop.example')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByLabelText('New password for bob@shop.example')).toBeNull();
  });

  it('asks before removing a mailbox', async () => {
    renderPage({ ...verified, mail_servers_attached: true }, accounts);
    const alice = (await screen.findByText('alice@shop.example')).closest('li')!;
    fireEvent.click(within(alice).getByRole('button', { name: /Remove/ }));
    expect(screen.getByRole('alertdialog').textContent).toContain('Remove alice@shop.example and all of its mail?');
  });
});
