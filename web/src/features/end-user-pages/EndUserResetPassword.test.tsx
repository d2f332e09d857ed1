import { fireEvent, screen } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../test/utils';
import EndUserResetPassword, { RESET_DONE_TEXT, RESET_LINK_INCOMPLETE } from './EndUserResetPassword';

const PATH = '/auth/end-user/reset-password';

function fill(password: string, confirm = password) {
  fireEvent.change(screen.getByLabelText('New password'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: confirm } });
  fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
}

beforeEach(() => localStorage.clear());

it('posts the token from the link and the new password, then says so', async () => {
  const fetchMock = mockFetch(() => ({ body: { message: 'Password has been reset' } }));
  renderWithProviders(<EndUserResetPassword />, { route: `${PATH}?token=tok-123`, path: PATH });
  fill('a brand new password');
  expect((await screen.findByRole('status')).textContent).toBe(RESET_DONE_TEXT);
  expect(RESET_DONE_TEXT).toBe('Your password has been changed. You can sign in to the app with your new password.');
  expect(screen.getByRole('heading', { name: 'Password changed' })).toBeTruthy();
  expect(fetchMock).toHaveBeenCalledTimes(1);
  const [url, init] = fetchMock.mock.calls[0];
  expect(url).toBe('/api/auth/v1/reset');
  expect(init.method).toBe('POST');
  expect(JSON.parse(init.body)).toEqual({ token: 'tok-123', password: 'a brand new password' });
  // No API key: the token names the project.
  expect((init.headers as Headers).has('x-api-key')).toBe(false);
});

it('needs at least 8 characters and a matching confirmation before calling the server', async () => {
  const fetchMock = mockFetch(() => ({ body: { message: 'Password has been reset' } }));
  renderWithProviders(<EndUserResetPassword />, { route: `${PATH}?token=tok-123`, path: PATH });
  fill('short');
  expect((await screen.findByRole('alert')).textContent).toBe('Password must be at least 8 characters');
  fill('long enough password', 'long enough passwort');
  expect((await screen.findByRole('alert')).textContent).toBe('Passwords do not match');
  expect(fetchMock).not.toHaveBeenCalled();
});

it("shows the server's message when the link is used or expired, and keeps the form", async () => {
  mockFetch(() => ({ status: 400, body: { message: 'This reset link is invalid or has expired' } }));
  renderWithProviders(<EndUserResetPassword />, { route: `${PATH}?token=old`, path: PATH });
  fill('a brand new password');
  expect((await screen.findByRole('alert')).textContent).toBe('This reset link is invalid or has expired');
  expect(screen.getByRole('button', { name: 'Set new password' })).toBeTruthy();
});

it('shows "HTTP Error: {status}" when the server sends no message', async () => {
  mockFetch(() => ({ status: 429 }));
  renderWithProviders(<EndUserResetPassword />, { route: `${PATH}?token=t`, path: PATH });
  fill('a brand new password');
  expect((await screen.findByRole('alert')).textContent).toBe('HTTP Error: 429');
});

it('explains a link without a token instead of showing the form', () => {
  const fetchMock = mockFetch(() => ({ body: {} }));
  renderWithProviders(<EndUserResetPassword />, { route: PATH, path: PATH });
  expect(screen.getByRole('alert').textContent).toBe(RESET_LINK_INCOMPLETE);
  expect(screen.queryByLabelText('New password')).toBeNull();
  expect(fetchMock).not.toHaveBeenCalled();
});
