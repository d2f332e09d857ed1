import { mockFetch, renderWithProviders } from '../../test/utils';
import { Route } from 'react-router-dom';
import { act, fireEvent, screen } from '@testing-library/react';
import Mfa from './Mfa';

const consoleRoute = <Route path="/console" element={<p>console page</p>} />;
const boxes = () => screen.getAllByRole('textbox') as HTMLInputElement[];
const typeCode = (code: string) => fireEvent.paste(boxes()[0], { clipboardData: { getData: () => code } });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

it('counts down from 30 seconds and loops; "Didn\'t receive a code?" restarts it', () => {
  jest.useFakeTimers();
  try {
    mockFetch(() => ({ body: {} }));
    renderWithProviders(<Mfa />, { route: '/auth/mfa', path: '/auth/mfa' });
    const timer = () => screen.getByTestId('mfa-countdown').textContent;
    expect(timer()).toBe('0:30');
    act(() => jest.advanceTimersByTime(1000));
    expect(timer()).toBe('0:29');
    act(() => jest.advanceTimersByTime(29000));
    expect(timer()).toBe('0:30');
    act(() => jest.advanceTimersByTime(5000));
    expect(timer()).toBe('0:25');
    fireEvent.click(screen.getByRole('button', { name: "Didn't receive a code?" }));
    expect(timer()).toBe('0:30');
  } finally {
    jest.useRealTimers();
  }
});

it('needs a stored email', async () => {
  const fetchMock = mockFetch(() => ({ body: {} }));
  renderWithProviders(<Mfa />, { route: '/auth/mfa', path: '/auth/mfa' });
  typeCode('123456');
  fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
  expect((await screen.findByRole('alert')).textContent).toBe('Email not found or invalid code.');
  expect(fetchMock).not.toHaveBeenCalled();
});

it('stores the token and opens the console on "verified"', async () => {
  localStorage.setItem('mfa_email', 'ada@example.com');
  sessionStorage.setItem('mfa_token', 'pending-1');
  const fetchMock = mockFetch(() => ({ body: { message: 'verified', token: 'session-token' } }));
  renderWithProviders(<Mfa />, { route: '/auth/mfa', path: '/auth/mfa', extraRoutes: consoleRoute });
  typeCode('654321');
  fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
  expect(await screen.findByText('console page')).toBeTruthy();
  expect(localStorage.getItem('token')).toBe('session-token');
  expect(localStorage.getItem('mfa_email')).toBeNull();
  const [url, init] = fetchMock.mock.calls[0];
  expect(url).toBe('/api/verifyMFACode');
  expect(JSON.parse(init.body)).toEqual({ email: 'ada@example.com', mfa_code: '654321', mfa_token: 'pending-1' });
});

it('says "Invalid code. Please try again." when the server refuses the code', async () => {
  localStorage.setItem('mfa_email', 'ada@example.com');
  mockFetch(() => ({ status: 401, body: { message: 'Invalid or expired code' } }));
  renderWithProviders(<Mfa />, { route: '/auth/mfa', path: '/auth/mfa' });
  typeCode('000000');
  fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
  expect((await screen.findByRole('alert')).textContent).toBe('Invalid code. Please try again.');
  expect(boxes().map((b) => b.value).join('')).toBe('');
});

it('says "Verification failed. Please try again." when the call fails', async () => {
  localStorage.setItem('mfa_email', 'ada@example.com');
  mockFetch(() => ({ status: 500 }));
  renderWithProviders(<Mfa />, { route: '/auth/mfa', path: '/auth/mfa' });
  typeCode('111111');
  fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
  expect((await screen.findByRole('alert')).textContent).toBe('Verification failed. Please try again.');
});
