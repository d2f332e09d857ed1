import { mockFetch, renderWithProviders } from '../../test/utils';
import { Route } from 'react-router-dom';
import { screen, waitFor } from '@testing-library/react';
import { useTokenGate } from './useTokenGate';

function Gated() {
  const state = useTokenGate();
  return <p>{state === 'allowed' ? 'secret console' : 'checking'}</p>;
}

const loginRoute = <Route path="/auth/login" element={<p>login page</p>} />;

beforeEach(() => localStorage.clear());

it('sends a visitor without a token to /auth/login without calling the server', async () => {
  const fetchMock = mockFetch(() => ({ body: { message: 'True' } }));
  renderWithProviders(<Gated />, { route: '/console', path: '/console', extraRoutes: loginRoute });
  expect(await screen.findByText('login page')).toBeTruthy();
  expect(fetchMock).not.toHaveBeenCalled();
});

it('removes a token the server does not accept and redirects', async () => {
  localStorage.setItem('token', 'stale');
  localStorage.setItem('email', 'ada@example.com');
  const fetchMock = mockFetch(() => ({ body: { message: 'False' } }));
  renderWithProviders(<Gated />, { route: '/console', path: '/console', extraRoutes: loginRoute });
  expect(await screen.findByText('login page')).toBeTruthy();
  expect(localStorage.getItem('token')).toBeNull();
  const [url, init] = fetchMock.mock.calls[0];
  expect(url).toBe('/api/verify-token');
  expect(JSON.parse(init.body)).toEqual({ token: 'stale' });
});

it('redirects when verification fails with an HTTP error', async () => {
  localStorage.setItem('token', 'bad');
  mockFetch(() => ({ status: 401, body: { message: 'Invalid token' } }));
  renderWithProviders(<Gated />, { route: '/console', path: '/console', extraRoutes: loginRoute });
  expect(await screen.findByText('login page')).toBeTruthy();
  expect(localStorage.getItem('token')).toBeNull();
});

it('shows the screen when the server answers "True"', async () => {
  localStorage.setItem('token', 'good');
  mockFetch(() => ({ body: { message: 'True' } }));
  renderWithProviders(<Gated />, { route: '/console', path: '/console', extraRoutes: loginRoute });
  expect(screen.getByText('checking')).toBeTruthy();
  expect(await screen.findByText('secret console')).toBeTruthy();
  await waitFor(() => expect(localStorage.getItem('token')).toBe('good'));
});

it('a check that got no verdict (network failure, server down) keeps the token and asks again', async () => {
  localStorage.setItem('token', 'good');
  let calls = 0;
  const fetchMock = jest.fn(async () => {
    calls += 1;
    if (calls === 1) throw new TypeError('Failed to fetch');
    if (calls === 2) return { ok: false, status: 503, headers: new Headers({ 'content-type': 'application/json' }), text: async () => '{"message":"Service unavailable"}', json: async () => ({ message: 'Service unavailable' }) };
    return { ok: true, status: 200, headers: new Headers({ 'content-type': 'application/json' }), text: async () => '{"message":"True"}', json: async () => ({ message: 'True' }) };
  });
  (globalThis as unknown as { fetch: unknown }).fetch = fetchMock;
  jest.useFakeTimers();
  try {
    renderWithProviders(<Gated />, { route: '/console', path: '/console', extraRoutes: loginRoute });
    await waitFor(() => expect(calls).toBe(1));
    expect(localStorage.getItem('token')).toBe('good');
    await jest.advanceTimersByTimeAsync(1000);
    await waitFor(() => expect(calls).toBe(2));
    expect(localStorage.getItem('token')).toBe('good');
    await jest.advanceTimersByTimeAsync(2000);
    jest.useRealTimers();
    expect(await screen.findByText('secret console')).toBeTruthy();
    expect(localStorage.getItem('token')).toBe('good');
  } finally {
    jest.useRealTimers();
  }
});
