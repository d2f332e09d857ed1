// Device tokens: Login and Mfa send the one this browser holds for the account and keep the one
// the server answers; ForgotPassword sends it too; signing out does not forget it.
import { Route } from 'react-router-dom';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../test/utils';
import { signOut } from '../../lib/session';
import Login from './Login';
import Mfa from './Mfa';
import ForgotPassword from './ForgotPassword';
import { DEVICE_TOKENS_KEY, deviceTokenField, keepDeviceToken } from './deviceToken';

const stored = () => JSON.parse(localStorage.getItem(DEVICE_TOKENS_KEY) ?? '{}');

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

it('kept per e-mail (any case), survives sign-out, and bad storage is ignored', () => {
  keepDeviceToken('Ada@Example.com', 'dt-ada');
  keepDeviceToken('grace@example.com', 'dt-grace');
  signOut();
  expect(deviceTokenField('ada@example.com')).toEqual({ device_token: 'dt-ada' });
  expect(deviceTokenField('GRACE@example.com ')).toEqual({ device_token: 'dt-grace' });
  expect(deviceTokenField('nobody@example.com')).toEqual({});
  localStorage.setItem(DEVICE_TOKENS_KEY, '[not json');
  expect(deviceTokenField('ada@example.com')).toEqual({});
});

it('Login sends the stored token of that account and keeps the new one', async () => {
  keepDeviceToken('ada@example.com', 'old-device');
  keepDeviceToken('other@example.com', 'not-this-one');
  const fetchMock = mockFetch(() => ({ body: { message: 'Login successful', token: 'session', device_token: 'new-device' } }));
  renderWithProviders(<Login />, { route: '/auth/login', path: '/auth/login', extraRoutes: <Route path="/dashboard" element={<p>dashboard</p>} /> });
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'Ada@example.com' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct horse battery' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  await screen.findByText('dashboard');
  expect(JSON.parse(fetchMock.mock.calls[0][1].body)).toMatchObject({ email: 'Ada@example.com', device_token: 'old-device' });
  expect(stored()).toEqual({ 'ada@example.com': 'new-device', 'other@example.com': 'not-this-one' });
});

it('Login without a stored token sends none; the MFA step sends and keeps it', async () => {
  const fetchMock = mockFetch((path) =>
    path.endsWith('/verify_user') ? { body: { message: 'mfa', mfa_token: 'challenge' } } : { body: { message: 'verified', token: 'session', device_token: 'from-mfa' } },
  );
  renderWithProviders(<Login />, { route: '/auth/login', path: '/auth/login', extraRoutes: [<Route key="m" path="/auth/mfa" element={<Mfa />} />, <Route key="c" path="/console" element={<p>console</p>} />] });
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct horse battery' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  await screen.findByRole('button', { name: 'Verify' });
  const boxes = screen.getAllByRole('textbox') as HTMLInputElement[];
  expect(JSON.parse(fetchMock.mock.calls[0][1].body)).not.toHaveProperty('device_token');
  keepDeviceToken('ada@example.com', 'earlier');
  fireEvent.paste(boxes[0], { clipboardData: { getData: () => '123456' } });
  fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
  await waitFor(() => expect(stored()).toEqual({ 'ada@example.com': 'from-mfa' }));
  expect(JSON.parse(fetchMock.mock.calls[1][1].body)).toEqual({ email: 'ada@example.com', mfa_code: '123456', mfa_token: 'challenge', device_token: 'earlier' });
});

it('ForgotPassword sends the token of that account', async () => {
  keepDeviceToken('ada@example.com', 'dt-ada');
  const fetchMock = mockFetch(() => ({ body: { message: true } }));
  renderWithProviders(<ForgotPassword />, { route: '/auth/forgot-password', path: '/auth/forgot-password' });
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
  fireEvent.click(screen.getByRole('button', { name: /reset/i }));
  await screen.findByText('Check your email');
  expect(JSON.parse(fetchMock.mock.calls[0][1].body)).toEqual({ email: 'ada@example.com', device_token: 'dt-ada' });
});
