import { ApiError, customFetch } from './http';
import { mockFetch } from '../test/utils';

beforeEach(() => localStorage.clear());

it('posts JSON to /api with the bearer token', async () => {
  localStorage.setItem('token', 'tok');
  const fetchMock = mockFetch(() => ({ body: { message: 'True' } }));
  const res = await customFetch<{ message: string }>('/verify-token', { method: 'POST', body: JSON.stringify({ token: 'tok' }) });
  expect(res.message).toBe('True');
  const [url, init] = fetchMock.mock.calls[0];
  expect(url).toBe('/api/verify-token');
  const headers = init.headers as Headers;
  expect(headers.get('Authorization')).toBe('Bearer tok');
  expect(headers.get('Content-Type')).toBe('application/json');
});

it("throws the server's message on a non-OK answer", async () => {
  mockFetch(() => ({ status: 409, body: { message: 'Subdomain is already taken' } }));
  await expect(customFetch('/create-project', { method: 'POST' })).rejects.toMatchObject({
    message: 'Subdomain is already taken',
    status: 409,
  });
});

it('falls back to "HTTP Error: {status}"', async () => {
  mockFetch(() => ({ status: 502 }));
  await expect(customFetch('/projects', { method: 'POST' })).rejects.toThrow('HTTP Error: 502');
});

it('reports network failures as "An unknown error occurred"', async () => {
  (globalThis as { fetch?: unknown }).fetch = jest.fn(async () => {
    throw new TypeError('Failed to fetch');
  });
  const err = (await customFetch('/projects', { method: 'POST' }).catch((e: unknown) => e)) as ApiError;
  expect(err).toBeInstanceOf(ApiError);
  expect(err.message).toBe('An unknown error occurred');
  expect(err.status).toBe(0);
});

it('sends {} when an optional JSON body is left out', async () => {
  const fetchMock = mockFetch(() => ({ body: { ok: true } }));
  await customFetch('/account-details', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: undefined });
  expect(fetchMock.mock.calls[0][1].body).toBe('{}');
  await customFetch('/projects', { method: 'POST' });
  expect(fetchMock.mock.calls[1][1].body).toBeUndefined();
});

it('words a validation message for people and keeps the one sent in the body', async () => {
  mockFetch(() => ({ status: 400, body: { message: 'body/new_password must NOT have fewer than 8 characters', code: 'VALIDATION' } }));
  const err = (await customFetch('/account-details', { method: 'POST' }).catch((e: unknown) => e)) as ApiError;
  expect(err.message).toBe('New password must NOT have fewer than 8 characters');
  expect(err.serverMessage).toBe('New password must NOT have fewer than 8 characters');
  expect(err.body).toEqual({ message: 'body/new_password must NOT have fewer than 8 characters', code: 'VALIDATION' });
});
