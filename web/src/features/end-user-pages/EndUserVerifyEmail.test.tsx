import { StrictMode } from 'react';
import { screen } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../test/utils';
import EndUserVerifyEmail, { VERIFIED_TEXT, VERIFY_LINK_INCOMPLETE } from './EndUserVerifyEmail';

const PATH = '/auth/end-user/verify-email';

it('confirms the token once on load (even under StrictMode) and shows "Email verified"', async () => {
  const fetchMock = mockFetch(() => ({ body: { message: 'verified' } }));
  renderWithProviders(
    <StrictMode>
      <EndUserVerifyEmail />
    </StrictMode>,
    { route: `${PATH}?token=verify-1`, path: PATH },
  );
  expect(screen.getByText('Verifying your email...')).toBeTruthy();
  expect(await screen.findByRole('heading', { name: 'Email verified' })).toBeTruthy();
  expect(screen.getByRole('status').textContent).toBe(VERIFIED_TEXT);
  expect(fetchMock).toHaveBeenCalledTimes(1);
  const [url, init] = fetchMock.mock.calls[0];
  expect(url).toBe('/api/auth/v1/verify');
  expect(init.method).toBe('POST');
  expect(JSON.parse(init.body)).toEqual({ token: 'verify-1' });
  expect((init.headers as Headers).has('x-api-key')).toBe(false);
  expect(document.title).toBe('Email verified');
});

it("shows the server's message for a used or expired link", async () => {
  mockFetch(() => ({ status: 400, body: { message: 'This verification link is invalid or has expired' } }));
  renderWithProviders(<EndUserVerifyEmail />, { route: `${PATH}?token=used`, path: PATH });
  expect(await screen.findByRole('heading', { name: 'Email not verified' })).toBeTruthy();
  expect(screen.getByRole('alert').textContent).toBe('This verification link is invalid or has expired');
});

it('shows "An unknown error occurred" when the server cannot be reached', async () => {
  (globalThis as { fetch?: unknown }).fetch = jest.fn(async () => {
    throw new TypeError('Failed to fetch');
  });
  renderWithProviders(<EndUserVerifyEmail />, { route: `${PATH}?token=t`, path: PATH });
  expect((await screen.findByRole('alert')).textContent).toBe('An unknown error occurred');
});

it('explains a link without a token and calls nothing', () => {
  const fetchMock = mockFetch(() => ({ body: {} }));
  renderWithProviders(<EndUserVerifyEmail />, { route: PATH, path: PATH });
  expect(screen.getByRole('alert').textContent).toBe(VERIFY_LINK_INCOMPLETE);
  expect(fetchMock).not.toHaveBeenCalled();
});
