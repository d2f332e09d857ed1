// A newcomer's way in: Start Building → sign-up, a project card → its dashboard, a new project →
// its dashboard at once, and a Connect button on every project.
import { act, fireEvent, screen, within } from '@testing-library/react';
import { Route } from 'react-router-dom';
import { mockFetch, renderWithProviders } from '../../test/utils';
import Landing from '../marketing/Landing';
import ProjectLayout from '../console/ProjectLayout';
import { NewProjectModal } from './NewProjectModal';
import ProjectsPage from './ProjectsPage';

const PROJECT = { id: 'p-1', project_id: 'p-1', project_name: 'Shop', subdomain: 'shop', primary_domain: 'shop.localhost', description: null, created_at: '2026-11-24T10:00:00.000Z' };

beforeEach(() => localStorage.setItem('token', 't'));

it('Start Building on the landing page opens sign-up', () => {
  renderWithProviders(<Landing />);
  expect(screen.getByRole('link', { name: /Start Building/ }).getAttribute('href')).toBe('/auth/signup');
});

it('a project card opens the project\'s dashboard', async () => {
  mockFetch((path) => (path === '/api/projects' ? { body: [PROJECT] } : { status: 404, body: { message: 'unexpected' } }));
  renderWithProviders(<ProjectsPage />);
  const name = await screen.findByText('Shop');
  expect(name.closest('a')!.getAttribute('href')).toBe('/project/p-1/dashboard');
});

it('creating a project opens its dashboard', async () => {
  jest.useFakeTimers();
  try {
    mockFetch((path) => {
      if (path === '/api/check_subdomain') return { body: { available: true } };
      if (path === '/api/create-project') return { body: { message: 'project created', project: PROJECT } };
      if (path === '/api/projects') return { body: [PROJECT] };
      return { status: 404, body: { message: 'unexpected' } };
    });
    renderWithProviders(<NewProjectModal open onClose={() => undefined} />, {
      path: '/console',
      route: '/console',
      extraRoutes: <Route path="/project/:projectId/dashboard" element={<p>dashboard of the new project</p>} />,
    });
    fireEvent.change(screen.getByLabelText('Project name'), { target: { value: 'Shop' } });
    fireEvent.change(screen.getByLabelText('Subdomain'), { target: { value: 'shop' } });
    await act(async () => {
      jest.advanceTimersByTime(600);
    });
    await act(async () => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create Project' }));
    jest.useRealTimers();
    expect(await screen.findByText('dashboard of the new project')).toBeTruthy();
  } finally {
    jest.useRealTimers();
  }
});

it('every project page has a Connect button', async () => {
  mockFetch((path) => (path === '/api/project-details' || path.startsWith('/api/project') ? { body: { id: 'p-1', domain: 'shop.localhost', user_id: 'u', project_name: 'Shop' } } : { status: 404, body: {} }));
  renderWithProviders(<ProjectLayout />, { path: '/project/:projectId/*', route: '/project/p-1/storage' });
  const bar = (await screen.findByText('Shop')).closest('.project-bar') as HTMLElement;
  expect(within(bar).getByRole('link', { name: /Connect/ }).getAttribute('href')).toBe('/project/p-1/connect');
});
