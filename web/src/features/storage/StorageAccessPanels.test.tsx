import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../test/utils';
import { folderError, SignedLinksPanel, StorageRulesPanel } from './StorageAccessPanels';
import type { StorageFile } from '../../api/generated/model';

beforeEach(() => localStorage.setItem('token', 'dev-token'));

const RULES = '/api/project/p1/object-storage/rules';
const file: StorageFile = {
  object_id: 'f1',
  object_type: 'image/png',
  object_size: 3,
  metadata: '{"name":"me.png"}',
  path: null,
  folder: 'avatars',
  owner_id: null,
  created_at: '2026-11-24T10:00:00.000Z',
  updated_at: '2026-11-24T10:00:00.000Z',
};

it('refuses folders with "." or ".." parts before calling the server', () => {
  expect(folderError('avatars/2026')).toBeNull();
  expect(folderError('')).toBeNull();
  for (const bad of ['..', 'a/../b', '/a', 'a/', '.hidden']) expect(folderError(bad)).not.toBeNull();
});

it('lists the rules and saves a new one', async () => {
  let rules = [{ folder: 'public', access: 'read', public: false, updated_at: '2026-11-24T10:00:00.000Z' }];
  const fetchMock = mockFetch((path, body) => {
    if (path === `${RULES}/set`) {
      const b = body as { folder: string; access: string; public: boolean };
      const rule = { ...b, updated_at: '2026-11-24T10:01:00.000Z' };
      rules = [...rules, rule];
      return { body: { message: 'saved', rule } };
    }
    return { body: { rules } };
  });
  renderWithProviders(<StorageRulesPanel projectId="p1" />);
  expect(await screen.findByText('public')).toBeTruthy();
  fireEvent.change(screen.getByLabelText('Folder'), { target: { value: 'a/../b' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save rule' }));
  expect((await screen.findByRole('alert')).textContent).toMatch(/Folder:/);
  fireEvent.change(screen.getByLabelText('Folder'), { target: { value: 'avatars' } });
  fireEvent.change(screen.getByLabelText('Rule'), { target: { value: 'owner' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save rule' }));
  await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url === `${RULES}/set`)).toBe(true));
  const call = fetchMock.mock.calls.find(([url]) => url === `${RULES}/set`)!;
  expect(JSON.parse(call[1].body)).toEqual({ folder: 'avatars', access: 'owner', public: false });
  expect(await screen.findByText('avatars')).toBeTruthy();
});

it('marks a folder public and private again, keeping its access rule', async () => {
  let rules = [{ folder: 'site', access: 'none', public: false, updated_at: '2026-11-24T10:00:00.000Z' }];
  const sets: unknown[] = [];
  mockFetch((path, body) => {
    if (path === `${RULES}/set`) {
      sets.push(body);
      const rule = { ...(body as { folder: string; access: string; public: boolean }), updated_at: '2026-11-24T10:01:00.000Z' };
      rules = [rule];
      return { body: { message: 'saved', rule } };
    }
    return { body: { rules } };
  });
  renderWithProviders(<StorageRulesPanel projectId="p1" />);
  fireEvent.click(await screen.findByRole('button', { name: 'Make public: site' }));
  expect(await screen.findByText('Public')).toBeTruthy();
  expect(sets).toEqual([{ folder: 'site', access: 'none', public: true }]);
  fireEvent.click(await screen.findByRole('button', { name: 'Make private: site' }));
  await waitFor(() => expect(screen.queryByText('Public')).toBeNull());
  expect(sets[1]).toEqual({ folder: 'site', access: 'none', public: false });
});

it('saves a new rule as public when asked', async () => {
  const fetchMock = mockFetch((path, body) => (path === `${RULES}/set` ? { body: { message: 'saved', rule: { ...(body as object), updated_at: '2026-11-24T10:01:00.000Z' } } } : { body: { rules: [] } }));
  renderWithProviders(<StorageRulesPanel projectId="p1" />);
  fireEvent.change(await screen.findByLabelText('Folder'), { target: { value: 'logos' } });
  fireEvent.click(screen.getByLabelText(/^Public/));
  fireEvent.click(screen.getByRole('button', { name: 'Save rule' }));
  await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url === `${RULES}/set`)).toBe(true));
  const call = fetchMock.mock.calls.find(([url]) => url === `${RULES}/set`)!;
  expect(JSON.parse(call[1].body)).toEqual({ folder: 'logos', access: 'owner', public: true });
});

it('creates a signed link, shows its address once, and revokes an active link', async () => {
  const link = { link_id: 'l1', object_id: 'f1', name: 'me.png', expires_at: '2999-01-01T00:00:00.000Z', revoked_at: null, download_count: 2, created_at: '2026-11-24T10:00:00.000Z' };
  const fetchMock = mockFetch((path) => {
    if (path.endsWith('/signed-links/create')) return { body: { message: 'created', link: { ...link, url: 'http://localhost/api/storage/v1/signed/hbs_abc' } } };
    if (path.endsWith('/signed-links/revoke')) return { body: { message: 'revoked' } };
    return { body: { links: [link] } };
  });
  renderWithProviders(<SignedLinksPanel projectId="p1" files={[file]} />);
  expect(await screen.findByText(/2 downloads/)).toBeTruthy();
  fireEvent.change(screen.getByLabelText('Expires after'), { target: { value: '86400' } });
  fireEvent.click(screen.getByRole('button', { name: 'Create signed link' }));
  expect((await screen.findByTestId('signed-link-url')).textContent).toBe('http://localhost/api/storage/v1/signed/hbs_abc');
  const create = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/signed-links/create'))!;
  expect(JSON.parse(create[1].body)).toEqual({ object_id: 'f1', expires_in: 86400 });
  fireEvent.click(screen.getByRole('button', { name: 'Revoke link to me.png' }));
  await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/signed-links/revoke'))).toBe(true));
});
