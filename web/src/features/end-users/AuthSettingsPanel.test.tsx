import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../test/utils';
import { AuthSettingsPanel, signInSnippet } from './AuthSettingsPanel';

const URL_ = '/api/project/p1/auth/settings';

beforeEach(() => localStorage.setItem('token', 'dev-token'));

it('reads the settings with an empty body and shows them one origin per line', async () => {
  const fetchMock = mockFetch(() => ({ body: { allowed_origins: ['https://a.example.com', 'http://localhost:5173'], site_url: 'https://a.example.com/app' } }));
  renderWithProviders(<AuthSettingsPanel projectId="p1" />);
  const origins = (await screen.findByLabelText('Allowed CORS origins')) as HTMLTextAreaElement;
  expect(origins.value).toBe('https://a.example.com\nhttp://localhost:5173');
  expect((screen.getByLabelText('Site URL') as HTMLInputElement).value).toBe('https://a.example.com/app');
  const [url, init] = fetchMock.mock.calls[0];
  expect(url).toBe(URL_);
  expect(init.body).toBe('{}');
  expect((init.headers as Headers).get('Authorization')).toBe('Bearer dev-token');
});

it('refuses a line that is not an origin before calling the server', async () => {
  const fetchMock = mockFetch(() => ({ body: { allowed_origins: [], site_url: null } }));
  renderWithProviders(<AuthSettingsPanel projectId="p1" />);
  fireEvent.change(await screen.findByLabelText('Allowed CORS origins'), { target: { value: 'https://ok.example.com\n\nhttps://app.example.com/login' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
  expect((await screen.findByRole('alert')).textContent).toBe('Line 3: "https://app.example.com/login" is not an origin like https://app.example.com');
  expect(fetchMock).toHaveBeenCalledTimes(1);
});

it('saves the origins and the site URL, shows a toast and the saved values', async () => {
  const fetchMock = mockFetch((_path, body) => {
    const b = body as { allowed_origins?: string[]; site_url?: string | null };
    if (!b || !b.allowed_origins) return { body: { allowed_origins: [], site_url: null } };
    return { body: { allowed_origins: b.allowed_origins, site_url: b.site_url } };
  });
  renderWithProviders(<AuthSettingsPanel projectId="p1" />);
  fireEvent.change(await screen.findByLabelText('Allowed CORS origins'), { target: { value: ' https://App.example.com/ \nhttps://app.example.com\n' } });
  fireEvent.change(screen.getByLabelText('Site URL'), { target: { value: ' ' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
  expect(await screen.findByText('Settings saved')).toBeTruthy();
  expect(JSON.parse(fetchMock.mock.calls[1][1].body)).toEqual({ allowed_origins: ['https://app.example.com'], site_url: null, block_common_passwords: true });
  await waitFor(() => expect((screen.getByLabelText('Allowed CORS origins') as HTMLTextAreaElement).value).toBe('https://app.example.com'));
});

it("shows the server's message when saving fails", async () => {
  mockFetch((_path, body) =>
    (body as { allowed_origins?: string[] }).allowed_origins
      ? { status: 400, body: { message: 'body/site_url must be an http(s) URL without query, fragment or credentials' } }
      : { body: { allowed_origins: [], site_url: null } },
  );
  renderWithProviders(<AuthSettingsPanel projectId="p1" />);
  fireEvent.change(await screen.findByLabelText('Site URL'), { target: { value: 'https://app.example.com/welcome' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
  expect((await screen.findByRole('alert')).textContent).toBe('Site URL must be an http(s) URL without query, fragment or credentials');
});

it('shows the app API base of this origin and a sign-in example with the X-Hostbase-Key header', async () => {
  mockFetch(() => ({ body: { allowed_origins: [], site_url: null } }));
  renderWithProviders(<AuthSettingsPanel projectId="p1" />);
  expect(screen.getByTestId('app-api-base').textContent).toBe(`${window.location.origin}/api/auth/v1`);
  expect(screen.getByRole('button', { name: 'Copy App API base URL' })).toBeTruthy();
  expect(signInSnippet('https://h/api/auth/v1')).toContain("curl -X POST https://h/api/auth/v1/signin");
  expect(screen.getByText(/X-Hostbase-Key: <publishable key>/)).toBeTruthy();
  expect(screen.queryByText(/x-api-key/)).toBeNull();
});

it('shows the guessable-password setting and saves it switched off', async () => {
  const fetchMock = mockFetch((_path, body) => {
    const b = body as { allowed_origins?: string[]; block_common_passwords?: boolean };
    if (!b || !b.allowed_origins) return { body: { allowed_origins: [], site_url: null, block_common_passwords: true } };
    return { body: { allowed_origins: b.allowed_origins, site_url: null, block_common_passwords: b.block_common_passwords } };
  });
  renderWithProviders(<AuthSettingsPanel projectId="p1" />);
  const box = (await screen.findByLabelText('Refuse guessable passwords')) as HTMLInputElement;
  expect(box.checked).toBe(true);
  fireEvent.click(box);
  fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
  expect(await screen.findByText('Settings saved')).toBeTruthy();
  expect(JSON.parse(fetchMock.mock.calls[1][1].body)).toMatchObject({ block_common_passwords: false });
  await waitFor(() => expect((screen.getByLabelText('Refuse guessable passwords') as HTMLInputElement).checked).toBe(false));
});
