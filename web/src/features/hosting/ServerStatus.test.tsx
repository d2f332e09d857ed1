import { screen } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../test/utils';
import { ServerStatus, STATIC_NOT_RUNNING } from './ServerStatus';

beforeEach(() => localStorage.setItem('token', 'dev-token'));

const answer = (stats: Record<string, unknown>) => mockFetch((path) => (path === '/api/project/p1/container-stats/' ? { body: stats } : { status: 404, body: { message: 'Not Found' } }));

it('a static site says it is not running instead of showing CPU and memory zeros', async () => {
  answer({ cpu_percent: 0, mem_percent: 0, rx_mb: 1.5, tx_mb: 0.25, status: 'static', restarts: 0, last_exit: null });
  renderWithProviders(<ServerStatus projectId="p1" domain="shop.hostbase.test" enabled />);
  expect(await screen.findByText(new RegExp(STATIC_NOT_RUNNING))).toBeTruthy();
  expect(screen.queryByText('CPU Usage')).toBeNull();
  expect(screen.queryByText('Memory')).toBeNull();
  expect(screen.queryByText(/0\.0%/)).toBeNull();
  // Network is measured for every site, in binary units.
  expect(screen.getByText('1.50 MiB')).toBeTruthy();
  expect(screen.getByText('256.00 KiB')).toBeTruthy();
});

it('a running site shows its CPU and memory', async () => {
  answer({ cpu_percent: 12.34, mem_percent: 40, rx_mb: 0, tx_mb: 0, status: 'running', restarts: 0, last_exit: null });
  renderWithProviders(<ServerStatus projectId="p1" domain="shop.hostbase.test" enabled />);
  expect(await screen.findByText('12.3%')).toBeTruthy();
  expect(screen.getByText('40.0%')).toBeTruthy();
  expect(screen.queryByText(new RegExp(STATIC_NOT_RUNNING))).toBeNull();
});
