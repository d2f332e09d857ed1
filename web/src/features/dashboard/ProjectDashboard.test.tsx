import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Outlet, Route, Routes } from 'react-router-dom';
import type { ActivityEntry, ProjectError } from '../../api/generated/model';
import { mockFetch, renderWithProviders, type FetchHandler } from '../../test/utils';
import ProjectDashboard from './ProjectDashboard';

beforeEach(() => localStorage.setItem('token', 'dev-token'));

const ACTIVITY = '/api/project/p1/activity';
const ERRORS = '/api/project/p1/errors';
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

const entry = (i: number, summary: string): ActivityEntry => ({
  id: `a${i}`, operation_id: 'createProject', summary, project_id: 'p1', project_name: 'Shop', ip: '203.0.113.7', created_at: minutesAgo(i * 5),
});
const error = (i: number, severity: ProjectError['severity'], message: string): ProjectError => ({
  id: `e${i}`, kind: 'deploy_failed', severity, message, created_at: minutesAgo(i * 60),
});

function renderDashboard(handler: FetchHandler) {
  const fetchMock = mockFetch((path, body, init) => {
    if (path === ACTIVITY || path === ERRORS) return handler(path, body, init);
    if (path.includes('/object-storage/files')) return { body: { files: [], total: 0, page: 1, page_size: 100, next_page: null, usage_bytes: 0, files_bytes: 0 } };
    if (path.includes('/auth/users_list')) return { body: { users: [], total: 0, page: 1, page_size: 100, next_page: null } };
    if (path.includes('/deployments')) return { body: { deployments: [] } };
    return { status: 404, body: { message: 'Not found' } };
  });
  const project = { id: 'p1', domain: 'shop.hostbase.test', user_id: 'u1', project_name: 'Shop', created_at: minutesAgo(600) };
  renderWithProviders(
    <Routes>
      <Route element={<Outlet context={{ projectId: 'p1', project }} />}>
        <Route path="*" element={<ProjectDashboard />} />
      </Route>
    </Routes>,
  );
  return fetchMock;
}

const page = <T,>(key: 'entries' | 'errors', items: T[], p = 1, total = items.length, next: number | null = null) => ({ [key]: items, total, page: p, page_size: 10, next_page: next });

it('shows the real errors with their severity and the activity with how long ago, newest first', async () => {
  const fetchMock = renderDashboard((path) =>
    path === ERRORS
      ? { body: page('errors', [error(1, 'high', 'The site of shop crashed: exited (code 3)'), error(2, 'medium', 'A Static deployment failed: The zip is empty.')]) }
      : { body: page('entries', [entry(1, 'Rotated the publishable key'), entry(2, 'Created project "Shop" (shop)')]) },
  );
  const errors = await screen.findByRole('list', { name: 'Project errors' });
  const errorItems = within(errors).getAllByRole('listitem');
  expect(errorItems.map((li) => li.textContent)).toEqual([
    expect.stringMatching(/crashed: exited \(code 3\).*high.*1 hour ago/),
    expect.stringMatching(/The zip is empty\..*medium.*2 hours ago/),
  ]);
  const activity = await screen.findByRole('list', { name: 'Project activity' });
  expect(within(activity).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
    expect.stringMatching(/^Rotated the publishable key.*203\.0\.113\.7.*5 minutes ago$/),
    expect.stringMatching(/^Created project "Shop" \(shop\).*10 minutes ago$/),
  ]);
  expect(JSON.parse(fetchMock.mock.calls.find(([url]) => url === ACTIVITY)![1].body)).toEqual({ page: 1, page_size: 10 });
  expect(screen.queryByText(/sample/i)).toBeNull();
});

it('says so when there is nothing yet, and shows a failed load as an error, not as "no errors"', async () => {
  renderDashboard((path) => (path === ERRORS ? { status: 500, body: { message: 'Internal server error' } } : { body: page('entries', []) }));
  expect(await screen.findByText('No activity yet')).toBeTruthy();
  expect(await screen.findByText('Could not load the errors')).toBeTruthy();
  expect(screen.queryByText('No errors')).toBeNull();
});

it('pages through older activity', async () => {
  const fetchMock = renderDashboard((path, body) => {
    if (path === ERRORS) return { body: page('errors', []) };
    const p = (body as { page?: number }).page ?? 1;
    return { body: p === 1 ? page('entries', [entry(1, 'Newest change')], 1, 11, 2) : page('entries', [entry(20, 'Oldest change')], 2, 11, null) };
  });
  expect(await screen.findByText('Newest change')).toBeTruthy();
  expect(screen.getByText('No errors')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: /Older/ }));
  expect(await screen.findByText('Oldest change')).toBeTruthy();
  expect(screen.getByText('Page 2 of 2')).toBeTruthy();
  await waitFor(() => expect(fetchMock.mock.calls.filter(([url]) => url === ACTIVITY).map(([, init]) => JSON.parse(init.body).page)).toEqual([1, 2]));
});
