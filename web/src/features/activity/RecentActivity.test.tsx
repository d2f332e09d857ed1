import { screen, within } from '@testing-library/react';
import type { ActivityPage } from '../../api/generated/model';
import { mockFetch, renderWithProviders } from '../../test/utils';
import { RecentActivity } from './RecentActivity';

beforeEach(() => localStorage.setItem('token', 'dev-token'));

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

it("lists the account's latest changes with the project's name (a link) where there is one, and relative times", async () => {
  const answer: ActivityPage = {
    entries: [
      { id: '1', operation_id: 'deleteObjects', summary: 'Deleted 3 files', project_id: 'p1', project_name: 'Shop', ip: '203.0.113.7', created_at: ago(10_000) },
      { id: '2', operation_id: 'deleteProject', summary: 'Deleted project "Old" (old)', project_id: 'p2', project_name: null, ip: '203.0.113.7', created_at: ago(3 * 3600_000) },
      { id: '3', operation_id: 'changePassword', summary: 'Changed the password', project_id: null, project_name: null, ip: '203.0.113.7', created_at: ago(2 * 86400_000) },
    ],
    total: 3, page: 1, page_size: 8, next_page: null,
  };
  const fetchMock = mockFetch((path) => (path === '/api/activity' ? { body: answer } : { status: 404, body: { message: 'Not found' } }));
  renderWithProviders(<RecentActivity />);
  const list = await screen.findByRole('list', { name: 'Recent activity' });
  const items = within(list).getAllByRole('listitem');
  expect(items.map((li) => li.textContent)).toEqual(['Deleted 3 filesShopjust now', 'Deleted project "Old" (old)3 hours ago', 'Changed the password2 days ago']);
  expect(within(items[0]).getByRole('link', { name: 'Shop' }).getAttribute('href')).toBe('/project/p1/dashboard');
  expect(within(items[1]).queryByRole('link')).toBeNull();
  expect(JSON.parse(fetchMock.mock.calls[0][1].body)).toEqual({ page: 1, page_size: 8 });
});

it('shows an empty state for a new account', async () => {
  mockFetch(() => ({ body: { entries: [], total: 0, page: 1, page_size: 8, next_page: null } }));
  renderWithProviders(<RecentActivity />);
  expect(await screen.findByText('No activity yet')).toBeTruthy();
});
