import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Outlet, Route, Routes } from 'react-router-dom';
import { mockFetch, renderWithProviders } from '../../test/utils';
import StoragePage, { SHARE_COPIED } from './StoragePage';

beforeEach(() => localStorage.setItem('token', 'dev-token'));

const BASE = '/api/project/p1/object-storage';
const SHARE_URL = 'http://localhost:3000/s3/object-storage/seg123/f1';
const SIGNED_URL = 'http://localhost:3000/api/storage/v1/object/sign/f1?token=1.d.sig';
const file = (path: string | null) => ({
  object_id: 'f1',
  object_type: 'image/png',
  object_size: 3,
  metadata: '{"name":"cat.png"}',
  path,
  folder: '',
  owner_id: null,
  created_at: '2026-11-24T10:00:00.000Z',
  updated_at: '2026-11-24T10:00:00.000Z',
});

function renderPage(initialPath: string | null) {
  let current = file(initialPath);
  const fetchMock = mockFetch((path) => {
    if (path === `${BASE}/files`) return { body: { files: [current], total: 1, page: 1, page_size: 100, next_page: null, usage_bytes: 3, files_bytes: 3, hosting_bytes: 0 } };
    if (path === `${BASE}/share`) {
      current = file(SHARE_URL);
      return { body: { message: 'shared', file: current } };
    }
    if (path === `${BASE}/unshare`) {
      current = file(null);
      return { body: { message: 'unshared' } };
    }
    if (path === `${BASE}/sign`) return { body: { message: 'created', signed_url: { object_id: 'f1', url: SIGNED_URL, expires_at: '2026-11-24T10:10:00.000Z' } } };
    if (path === `${BASE}/rules`) return { body: { rules: [] } };
    if (path === `${BASE}/signed-links`) return { body: { links: [] } };
    return { status: 404, body: { message: 'Not Found' } };
  });
  renderWithProviders(
    <Routes>
      <Route element={<Outlet context={{ projectId: 'p1' }} />}>
        <Route path="*" element={<StoragePage />} />
      </Route>
    </Routes>,
  );
  return fetchMock;
}
const calls = (fetchMock: jest.Mock, suffix: string) => fetchMock.mock.calls.filter(([url]) => String(url) === `${BASE}/${suffix}`);

it('copy share link shares the private file first, then copies the link the server made', async () => {
  const writeText = jest.fn(async () => undefined);
  Object.assign(navigator, { clipboard: { writeText } });
  const fetchMock = renderPage(null);
  fireEvent.click(await screen.findByRole('button', { name: 'Copy share link of cat.png' }));
  expect(await screen.findByText(SHARE_COPIED)).toBeTruthy();
  expect(JSON.parse(calls(fetchMock, 'share')[0]![1].body)).toEqual({ object_id: 'f1' });
  expect(writeText).toHaveBeenCalledWith(SHARE_URL);
  // The list comes back with the file shared.
  expect(await screen.findByText('Shared')).toBeTruthy();
});

it('previews a private image through a signed URL, and a shared one can stop being shared', async () => {
  const fetchMock = renderPage(null);
  fireEvent.click(await screen.findByRole('button', { name: 'Preview cat.png' }));
  const dialog = await screen.findByRole('dialog', { name: 'cat.png' });
  const img = await within(dialog).findByRole('img', { name: 'Preview of cat.png' });
  expect(img.getAttribute('src')).toBe(SIGNED_URL);
  expect(within(dialog).getByRole('link', { name: /Download/ }).getAttribute('href')).toBe(`${SIGNED_URL}&download=1`);
  expect(JSON.parse(calls(fetchMock, 'sign')[0]![1].body)).toMatchObject({ object_id: 'f1' });
  expect(within(dialog).queryByRole('button', { name: /Stop sharing/ })).toBeNull();

  fireEvent.click(within(dialog).getByRole('button', { name: /Share/ }));
  const stop = await within(dialog).findByRole('button', { name: /Stop sharing/ });
  // Shared, the preview shows the share link itself.
  await waitFor(() => expect(within(dialog).getByRole('img', { name: 'Preview of cat.png' }).getAttribute('src')).toBe(SHARE_URL));
  fireEvent.click(stop);
  await waitFor(() => expect(calls(fetchMock, 'unshare')).toHaveLength(1));
  expect(await screen.findByText(/Sharing stopped/)).toBeTruthy();
  await waitFor(() => expect(within(dialog).queryByRole('button', { name: /Stop sharing/ })).toBeNull());
  expect(within(dialog).getByText('Private')).toBeTruthy();
});

it('opens a private file in a new tab at a signed URL', async () => {
  const tab = { opener: {} as unknown, location: { href: '' }, close: jest.fn() };
  const open = jest.spyOn(window, 'open').mockImplementation(() => tab as unknown as Window);
  const fetchMock = renderPage(null);
  fireEvent.click(await screen.findByRole('button', { name: 'Open cat.png in a new tab' }));
  await waitFor(() => expect(tab.location.href).toBe(SIGNED_URL));
  expect(open).toHaveBeenCalledWith('', '_blank');
  expect(tab.opener).toBeNull();
  expect(calls(fetchMock, 'sign')).toHaveLength(1);
  open.mockRestore();
});
