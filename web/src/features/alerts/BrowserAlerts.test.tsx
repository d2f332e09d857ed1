import { waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../test/utils';
import { BrowserAlerts } from './BrowserAlerts';

const account = (push: boolean) => ({
  id: 'acc1', name: 'Ada', email: 'ada@example.com', email_verified: true, mfa_enabled: false, plan: 'hobby', created_at: '2026-01-01T00:00:00Z',
  notifications: { email: true, push },
});
const error = (id: string, at: string) => ({ id, kind: 'deploy_failed', severity: 'medium', message: `broken ${id}`, created_at: at, project_id: 'p1', project_name: 'Shop' });

const shown: { title: string; body?: string }[] = [];
class FakeNotification {
  static permission = 'granted';
  constructor(title: string, options?: { body?: string }) {
    shown.push({ title, body: options?.body });
  }
}

beforeEach(() => {
  shown.length = 0;
  localStorage.clear();
  localStorage.setItem('token', 'dev-token');
  (globalThis as unknown as { Notification: unknown }).Notification = FakeNotification;
  FakeNotification.permission = 'granted';
});
afterEach(() => {
  delete (globalThis as unknown as { Notification?: unknown }).Notification;
});

it('errors newer than the ones this browser saw become notifications; older ones do not', async () => {
  localStorage.setItem('alerts_seen_acc1', '2026-05-01T10:00:00.000Z');
  const fetchMock = mockFetch((path) =>
    path === '/api/account-details'
      ? { body: account(true) }
      : { body: { errors: [error('e3', '2026-05-01T10:02:00.000Z'), error('e2', '2026-05-01T10:01:00.000Z'), error('e1', '2026-05-01T09:00:00.000Z')], total: 3, page: 1, page_size: 10, next_page: null } },
  );
  renderWithProviders(<BrowserAlerts />);
  await waitFor(() => expect(shown).toHaveLength(2));
  expect(shown).toEqual([
    { title: 'Deploy failed: Shop', body: 'broken e2' },
    { title: 'Deploy failed: Shop', body: 'broken e3' },
  ]);
  expect(localStorage.getItem('alerts_seen_acc1')).toBe('2026-05-01T10:02:00.000Z');
  expect(fetchMock.mock.calls.map((c) => c[0])).toContain('/api/errors');
});

it('the first look only marks what is there', async () => {
  mockFetch((path) => (path === '/api/account-details' ? { body: account(true) } : { body: { errors: [error('e1', '2026-05-01T09:00:00.000Z')], total: 1, page: 1, page_size: 10, next_page: null } }));
  renderWithProviders(<BrowserAlerts />);
  await waitFor(() => expect(localStorage.getItem('alerts_seen_acc1')).toBe('2026-05-01T09:00:00.000Z'));
  expect(shown).toEqual([]);
});

it('with push off, or the browser not allowing it, the errors are not even read', async () => {
  const fetchMock = mockFetch((path) => (path === '/api/account-details' ? { body: account(false) } : { body: { errors: [], total: 0, page: 1, page_size: 10, next_page: null } }));
  renderWithProviders(<BrowserAlerts />);
  await waitFor(() => expect(fetchMock).toHaveBeenCalled());
  await new Promise((r) => setTimeout(r, 50));
  expect(fetchMock.mock.calls.map((c) => c[0])).not.toContain('/api/errors');
});
