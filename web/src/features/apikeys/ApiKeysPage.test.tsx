import { fireEvent, screen, within } from '@testing-library/react';
import { Outlet, Route, Routes } from 'react-router-dom';
import { mockFetch, renderWithProviders } from '../../test/utils';
import ApiKeysPage from './ApiKeysPage';

const KEYS = { publishable_key: 'hb_publishable_abcdefgh1234', secret_key: 'hb_secret_zyxwvuts9876' };

beforeEach(() => {
  localStorage.setItem('token', 't');
  mockFetch((path) => {
    if (path === '/api/project/p1/api-keys') return { body: KEYS };
    if (path === '/api/project/p1/bucket-details') return { body: { domain: 'shop.localhost', bucketId: 'b-1', api_key: KEYS.secret_key } };
    if (path === '/api/project/p1/authentication-details') return { body: { api_key: KEYS.publishable_key } };
    return { status: 404, body: { message: 'Not found' } };
  });
  renderWithProviders(
    <Routes>
      <Route element={<Outlet context={{ projectId: 'p1', project: { id: 'p1', domain: 'shop.localhost', user_id: 'u' } }} />}>
        <Route path="*" element={<ApiKeysPage />} />
      </Route>
    </Routes>,
  );
});

const row = (label: string) => screen.getByText(label, { selector: 'dt' }).closest('.key-row') as HTMLElement;

it('names each key once: publishable (shown, safe in a page) and secret (masked, keep it secret)', async () => {
  expect(await screen.findByText(KEYS.publishable_key)).toBeTruthy();
  expect(within(row('Publishable key')).getByText(/safe in a web page/i)).toBeTruthy();
  expect(within(row('Publishable key')).queryByText(/secret/i)).toBeNull();
  expect(within(row('Secret key')).getByText(/keep this secret/i)).toBeTruthy();
  expect(screen.queryByText(KEYS.secret_key)).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Show Secret key' }));
  expect(screen.getByText(KEYS.secret_key)).toBeTruthy();
  // Keep-it-secret only beside the secret key; no former names, no deprecated header.
  expect(screen.getAllByText(/keep (this|api keys) secret/i)).toHaveLength(1);
  expect(document.body.textContent).not.toMatch(/Bucket API Key|Authentication API Key|x-api-key/i);
});

it('the rotation dialog offers the same two names', async () => {
  fireEvent.click(await screen.findByRole('button', { name: /Create New Key/ }));
  const dialog = screen.getByRole('dialog', { name: 'Create New Key' });
  expect(within(dialog).getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual(['secret', 'publishable']);
  expect(within(dialog).getByText('Secret key')).toBeTruthy();
  expect(within(dialog).getByText('Publishable key')).toBeTruthy();
});
