import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../test/utils';
import type { Account } from '../../api/generated/model';
import { NotificationsSection } from './NotificationsSection';
import { ProfileSection } from './ProfileSection';

const account: Account = {
  id: 'a1',
  name: 'Ada',
  email: 'ada@example.com',
  email_verified: true,
  mfa_enabled: false,
  plan: 'hobby',
  created_at: '2026-01-02T03:04:05Z',
  notifications: { email: true, push: false },
};

beforeEach(() => localStorage.setItem('token', 'dev-token'));

it('notification switches are saved on the account, one preference per change', async () => {
  const fetchMock = mockFetch((_path, body) => ({ body: { ...account, notifications: { ...account.notifications, ...(body as { notifications: object }).notifications } } }));
  renderWithProviders(<NotificationsSection account={account} />);
  const email = screen.getByRole('switch', { name: /Email notifications/ });
  expect(email.getAttribute('aria-checked')).toBe('true');
  fireEvent.click(email);
  await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
  const [url, init] = fetchMock.mock.calls[0];
  expect(url).toBe('/api/account-details');
  expect(JSON.parse(init.body)).toEqual({ notifications: { email: false } });
  // Nothing is kept in the browser any more.
  expect(localStorage.getItem('pref_email_notifications')).toBeNull();
});

it('a new email is sent for confirmation, and the pending address is shown', async () => {
  const fetchMock = mockFetch(() => ({ body: { ...account, pending_email: 'ada@new.example.com' } }));
  renderWithProviders(<ProfileSection account={account} />);
  fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'ada@new.example.com' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
  await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
  expect(JSON.parse(fetchMock.mock.calls[0][1].body)).toEqual({ email: 'ada@new.example.com' });
  expect(await screen.findByText('Check your new inbox')).toBeTruthy();
  // Until the link is opened the field shows the account's address again.
  await waitFor(() => expect((screen.getByLabelText(/Email/) as HTMLInputElement).value).toBe('ada@example.com'));
});

it('a change waiting for its link is shown with both addresses', () => {
  renderWithProviders(<ProfileSection account={{ ...account, pending_email: 'ada@new.example.com' }} />);
  const status = screen.getByText(/Waiting for confirmation/);
  expect(status.textContent).toContain('ada@new.example.com');
  expect(status.textContent).toContain('ada@example.com');
});

it('the server refusing the address shows its message', async () => {
  mockFetch(() => ({ status: 400, body: { message: 'body/email must match format "email"' } }));
  renderWithProviders(<ProfileSection account={account} />);
  fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'ada@x' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
  expect((await screen.findByRole('alert')).textContent).toBe('Email must match format "email"');
});

it("push notifications need the browser's permission: refused, nothing is saved and the page says why", async () => {
  const fetchMock = mockFetch(() => ({ body: account }));
  (globalThis as unknown as { Notification: unknown }).Notification = { permission: 'denied', requestPermission: async () => 'denied' };
  try {
    renderWithProviders(<NotificationsSection account={account} />);
    fireEvent.click(screen.getByRole('switch', { name: /Push notifications/ }));
    expect((await screen.findByRole('alert')).textContent).toBe("Notifications are blocked for this site in the browser's settings.");
    expect(fetchMock).not.toHaveBeenCalled();
  } finally {
    delete (globalThis as unknown as { Notification?: unknown }).Notification;
  }
});

it('push notifications allowed by the browser are saved on the account', async () => {
  const fetchMock = mockFetch((_path, body) => ({ body: { ...account, notifications: { ...account.notifications, ...(body as { notifications: object }).notifications } } }));
  (globalThis as unknown as { Notification: unknown }).Notification = { permission: 'default', requestPermission: async () => 'granted' };
  try {
    renderWithProviders(<NotificationsSection account={account} />);
    fireEvent.click(screen.getByRole('switch', { name: /Push notifications/ }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(JSON.parse(fetchMock.mock.calls[0][1].body)).toEqual({ notifications: { push: true } });
  } finally {
    delete (globalThis as unknown as { Notification?: unknown }).Notification;
  }
});
