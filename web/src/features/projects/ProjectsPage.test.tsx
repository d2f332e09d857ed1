import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../../test/utils';
import ProjectsPage from './ProjectsPage';

const PROJECT = {
  project_id: '0b6f2c1e-8c1e-4f0a-9d55-3b7f1b2a6c01',
  project_name: 'Shop',
  subdomain: 'shop',
  primary_domain: 'shop.localhost',
  description: null,
  created_at: '2026-11-24T10:00:00.000Z',
};

let calls: { url: string; init: RequestInit }[];
let exportAnswer: () => { ok: boolean; status: number; headers: Headers; text: () => Promise<string>; blob: () => Promise<Blob> };

beforeEach(() => {
  localStorage.setItem('token', 't');
  calls = [];
  (URL as unknown as { createObjectURL: () => string }).createObjectURL = () => 'blob:archive';
  (URL as unknown as { revokeObjectURL: () => void }).revokeObjectURL = () => undefined;
  (globalThis as { fetch?: unknown }).fetch = jest.fn(async (url: string, init: RequestInit = {}) => {
    calls.push({ url, init });
    if (url === '/api/projects') return { ok: true, status: 200, headers: new Headers({ 'content-type': 'application/json' }), text: async () => JSON.stringify([PROJECT]) };
    if (url.endsWith('/export')) return exportAnswer();
    return { ok: false, status: 404, headers: new Headers({ 'content-type': 'application/json' }), text: async () => '{"message":"unexpected"}' };
  });
});

it('"Export project" downloads the archive under the server\'s file name', async () => {
  const clicked: string[] = [];
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this.download);
  });
  exportAnswer = () => ({
    ok: true,
    status: 200,
    headers: new Headers({ 'content-type': 'application/gzip', 'content-disposition': 'attachment; filename="shop-2026-11-24.tar.gz"' }),
    text: async () => '',
    blob: async () => new Blob(['archive']),
  });
  renderWithProviders(<ProjectsPage />);
  fireEvent.click(await screen.findByRole('button', { name: 'Export project Shop' }));
  expect(await screen.findByText('Project exported')).toBeTruthy();
  const call = calls.find((c) => c.url.endsWith('/export'))!;
  expect(call.url).toBe(`/api/project/${PROJECT.project_id}/export`);
  expect(call.init.method).toBe('POST');
  expect(new Headers(call.init.headers).get('Authorization')).toBe('Bearer t');
  expect(clicked).toEqual(['shop-2026-11-24.tar.gz']);
});

it('a refused export shows the server\'s message', async () => {
  exportAnswer = () => ({
    ok: false,
    status: 429,
    headers: new Headers({ 'content-type': 'application/json' }),
    text: async () => JSON.stringify({ message: 'Too many requests, try again in 60 seconds', code: 'RATE_LIMITED' }),
    blob: async () => new Blob([]),
  });
  renderWithProviders(<ProjectsPage />);
  fireEvent.click(await screen.findByRole('button', { name: 'Export project Shop' }));
  expect(await screen.findByText('Export failed')).toBeTruthy();
  await waitFor(() => expect(screen.getByText(/Too many requests/)).toBeTruthy());
});
