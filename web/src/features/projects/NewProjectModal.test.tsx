import { mockFetch, renderWithProviders } from '../../test/utils';
import { act, fireEvent, screen } from '@testing-library/react';
import { NewProjectModal } from './NewProjectModal';
import { SUBDOMAIN_MESSAGES } from './useSubdomainCheck';

beforeEach(() => {
  jest.useFakeTimers();
  localStorage.setItem('token', 't');
});
afterEach(() => {
  jest.useRealTimers();
});

async function flush() {
  // Let the resolved fetch promise chain settle.
  await act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  });
}

function setup(answer: (subdomain: string) => { status?: number; body?: unknown }) {
  const fetchMock = mockFetch((path, body) => {
    if (path === '/api/check_subdomain') return answer((body as { subdomain: string }).subdomain);
    return { status: 404, body: { message: 'unexpected' } };
  });
  renderWithProviders(<NewProjectModal open onClose={() => {}} />);
  fireEvent.change(screen.getByLabelText('Project name'), { target: { value: 'Demo' } });
  return fetchMock;
}

const status = () => document.getElementById('subdomain-status')!.textContent;
const createButton = () => screen.getByRole('button', { name: 'Create Project' }) as HTMLButtonElement;

it('shows nothing while typing, checks after 500 ms, then says available', async () => {
  const fetchMock = setup(() => ({ body: { available: true } }));
  fireEvent.change(screen.getByLabelText('Subdomain'), { target: { value: 'My-App' } });
  expect((screen.getByLabelText('Subdomain') as HTMLInputElement).value).toBe('my-app');
  expect(status()).toBe('');
  expect(createButton().disabled).toBe(true);

  act(() => jest.advanceTimersByTime(499));
  expect(fetchMock).not.toHaveBeenCalled();

  let release!: () => void;
  fetchMock.mockImplementationOnce(async (_url: string, init: RequestInit) => {
    await new Promise<void>((r) => (release = r));
    expect(JSON.parse(String(init.body))).toEqual({ subdomain: 'my-app' });
    return { ok: true, status: 200, headers: new Headers({ 'content-type': 'application/json' }), text: async () => '{"available":true}' };
  });
  act(() => jest.advanceTimersByTime(1));
  expect(status()).toBe(SUBDOMAIN_MESSAGES.checking);
  expect(status()).toBe('Checking availability...');
  expect(createButton().disabled).toBe(true);

  release();
  await flush();
  expect(status()).toBe('Subdomain is available');
  expect(createButton().disabled).toBe(false);
});

it('debounces: only the last value is checked', async () => {
  const fetchMock = setup(() => ({ body: { available: true } }));
  const input = screen.getByLabelText('Subdomain');
  fireEvent.change(input, { target: { value: 'a' } });
  act(() => jest.advanceTimersByTime(300));
  fireEvent.change(input, { target: { value: 'ab' } });
  act(() => jest.advanceTimersByTime(300));
  fireEvent.change(input, { target: { value: 'abc' } });
  act(() => jest.advanceTimersByTime(500));
  await flush();
  expect(fetchMock).toHaveBeenCalledTimes(1);
  expect(JSON.parse(String(fetchMock.mock.calls[0][1].body))).toEqual({ subdomain: 'abc' });
});

it('says taken and keeps Create disabled', async () => {
  setup(() => ({ body: { available: false, reason: 'taken' } }));
  fireEvent.change(screen.getByLabelText('Subdomain'), { target: { value: 'taken' } });
  act(() => jest.advanceTimersByTime(500));
  await flush();
  expect(status()).toBe('Subdomain is already taken');
  expect(createButton().disabled).toBe(true);
});

it('says error when the check fails', async () => {
  setup(() => ({ status: 500 }));
  fireEvent.change(screen.getByLabelText('Subdomain'), { target: { value: 'boom' } });
  act(() => jest.advanceTimersByTime(500));
  await flush();
  expect(status()).toBe('Error checking availability');
  expect(createButton().disabled).toBe(true);
});

it('goes back to empty when the field is cleared', async () => {
  setup(() => ({ body: { available: true } }));
  const input = screen.getByLabelText('Subdomain');
  fireEvent.change(input, { target: { value: 'ok' } });
  act(() => jest.advanceTimersByTime(500));
  await flush();
  expect(status()).toBe('Subdomain is available');
  fireEvent.change(input, { target: { value: '' } });
  expect(status()).toBe('');
  expect(createButton().disabled).toBe(true);
});
