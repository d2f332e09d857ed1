import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { UsageRange, UsageReport } from '../../api/generated/model';
import { mockFetch, renderWithProviders } from '../../test/utils';
import GlobalDashboard from './GlobalDashboard';

beforeEach(() => localStorage.setItem('token', 'dev-token'));

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

function report(range: UsageRange): UsageReport {
  const day = range === '7d' ? 'hour' : 'day';
  const starts = range === '7d' ? ['2026-11-23T12:00:00.000Z', '2026-11-23T13:00:00.000Z'] : ['2026-11-22T00:00:00.000Z', '2026-11-23T00:00:00.000Z'];
  const scale = range === '7d' ? 1 : 10;
  return {
    range,
    bucket: day,
    from: starts[0],
    to: '2026-11-23T13:30:00.000Z',
    series: [
      { start: starts[0], requests: { s2xx: 40 * scale, s3xx: 0, s4xx: 2, s5xx: 1 }, bandwidth_bytes: 3 * MiB },
      { start: starts[1], requests: { s2xx: 57 * scale, s3xx: 0, s4xx: 0, s5xx: 0 }, bandwidth_bytes: 0 },
    ],
    active_users: [
      { day: '2026-11-22', users: 4 },
      { day: '2026-11-23', users: 9 },
    ],
    totals: {
      requests: { s2xx: 97 * scale, s3xx: 0, s4xx: 2, s5xx: 1 },
      bandwidth_bytes: 3 * MiB,
      database_bytes: 1.5 * MiB,
      storage_bytes: 4 * GiB,
      active_users_month: 12847,
      requests_per_second: 0.25,
    },
    limits: { plan: 'hobby', label: 'Hobby', database_bytes: GiB, storage_bytes: 5 * GiB, monthly_active_users: 100_000 },
  };
}

it('shows the measured stats, charts with their figures in text, and usage against the plan', async () => {
  const asked: unknown[] = [];
  const fetchMock = mockFetch((path, body) => {
    if (path !== '/api/usage') return { status: 404, body: { message: 'unexpected ' + path } };
    asked.push(body);
    return { body: report(((body as { range?: UsageRange }).range ?? '7d') as UsageRange) };
  });
  renderWithProviders(<GlobalDashboard activity={null} />);

  const stats = await screen.findByRole('list', { name: 'Account usage' });
  const card = (label: string) => within(stats).getByText(label).closest('li')!.textContent;
  expect(card('Database Size')).toContain('1.50 MiB');
  expect(card('Storage Used')).toContain('4.00 GiB');
  expect(card('Active Users')).toContain('12,847');
  expect(card('Requests/sec')).toContain('0.25');
  expect(asked).toEqual([{ range: '7d' }]);
  expect(new Headers(fetchMock.mock.calls[0][1].headers).get('authorization')).toBe('Bearer dev-token');

  // Charts: an image with a title, and the figures per bucket in a table.
  expect(screen.getByRole('img', { name: 'API requests per hour: 100 requests, 3 errors' })).toBeTruthy();
  const table = screen.getByRole('table', { name: 'API requests per hour' });
  expect(within(table).getByRole('row', { name: /Nov 23, 12:00 UTC/ }).textContent).toBe('Nov 23, 12:00 UTC40021');
  expect(screen.getByRole('table', { name: 'Active users per day' }).textContent).toContain('Nov 239');
  expect(screen.getByRole('img', { name: /Hosting bandwidth per hour: 3.00 MiB/ })).toBeTruthy();

  // Usage limits: against the plan, with bars where it has a limit.
  const limits = screen.getByRole('region', { name: 'Usage limits' });
  expect(within(limits).getByText('Hobby plan')).toBeTruthy();
  expect(within(limits).getByText('1.50 MiB of 1.00 GiB')).toBeTruthy();
  expect(within(limits).getByText('4.00 GiB of 5.00 GiB')).toBeTruthy();
  expect(within(limits).getByText('12,847 of 100,000')).toBeTruthy();
  expect(within(limits).getByText('3.00 MiB in this period')).toBeTruthy();
  expect(within(limits).getByRole('progressbar', { name: "Storage used of the plan's limit" }).getAttribute('aria-valuenow')).toBe('80');

  // The quick actions go to real screens; no sample notice.
  const actions = screen.getByRole('region', { name: 'Quick actions' });
  expect(within(actions).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['/console/api-keys', '/console/account#mfa-title', '/console/account#billing-title', '/console/account']);
  expect(screen.queryByRole('note')).toBeNull();

  // Another range asks the API for it.
  fireEvent.change(screen.getByLabelText('Period'), { target: { value: '30d' } });
  await waitFor(() => expect(screen.getByRole('img', { name: 'API requests per day: 973 requests, 3 errors' })).toBeTruthy());
  expect(asked).toEqual([{ range: '7d' }, { range: '30d' }]);
  expect(screen.getByRole('option', { name: '3 months' })).toBeTruthy();
});

it("shows the server's message when usage cannot be read", async () => {
  mockFetch(() => ({ status: 500, body: { message: 'database unavailable' } }));
  renderWithProviders(<GlobalDashboard activity={null} />);
  expect((await screen.findByRole('alert')).textContent).toContain('database unavailable');
  expect(screen.queryByRole('list', { name: 'Account usage' })).toBeNull();
});

it('an unlimited plan shows figures without bars', async () => {
  mockFetch(() => ({ body: { ...report('7d'), limits: { plan: 'enterprise', label: 'Enterprise', database_bytes: null, storage_bytes: null, monthly_active_users: null } } }));
  renderWithProviders(<GlobalDashboard activity={null} />);
  const limits = await screen.findByRole('region', { name: 'Usage limits' });
  await waitFor(() => expect(within(limits).getByText('Enterprise plan: no limits')).toBeTruthy());
  expect(within(limits).getByText('4.00 GiB (unlimited)')).toBeTruthy();
  expect(within(limits).queryByRole('progressbar')).toBeNull();
});
