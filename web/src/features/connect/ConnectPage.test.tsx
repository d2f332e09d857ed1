import { screen, within } from '@testing-library/react';
import { Outlet, Route, Routes } from 'react-router-dom';
import { mockFetch, renderWithProviders } from '../../test/utils';
import ConnectPage from './ConnectPage';
import { curlSnippet, fetchSnippet, sdkSnippet } from './snippets';

const KEYS = { publishable_key: 'hb_publishable_abc123', secret_key: 'hb_secret_topsecret' };

function renderConnect() {
  localStorage.setItem('token', 't');
  mockFetch((path) => (path === '/api/project/p1/api-keys' ? { body: KEYS } : { status: 404, body: { message: 'Not found' } }));
  const project = { id: 'p1', domain: 'shop.hostbase.test', user_id: 'u1' };
  renderWithProviders(
    <Routes>
      <Route element={<Outlet context={{ projectId: 'p1', project }} />}>
        <Route path="*" element={<ConnectPage />} />
      </Route>
    </Routes>,
  );
}

it('shows the API URL of this origin and the publishable key, never the secret key', async () => {
  renderConnect();
  expect(await screen.findByText(KEYS.publishable_key)).toBeTruthy();
  expect(screen.getByTestId('connect-api-url').textContent).toBe(`${window.location.origin}/api`);
  expect(screen.getByText(/safe in a web page/)).toBeTruthy();
  expect(document.body.textContent).not.toContain(KEYS.secret_key);
  expect(document.body.textContent).not.toMatch(/keep (api keys|this) secret/i);
  expect(screen.getByRole('link', { name: 'API Keys' }).getAttribute('href')).toBe('/project/p1/api-keys');
});

it('gives the SDK, fetch and curl snippets with the URL and key filled in, each with a copy button', async () => {
  renderConnect();
  await screen.findByText(KEYS.publishable_key);
  for (const [name, title] of [['SDK', 'JavaScript SDK (@hostbase/client)'], ['fetch', 'fetch'], ['curl', 'curl']]) {
    const section = screen.getByRole('region', { name: title });
    const code = within(section).getByTestId(`snippet-${name}`).textContent ?? '';
    expect(code).toContain(KEYS.publishable_key);
    expect(code).toContain(window.location.origin);
    expect(code.toLowerCase()).not.toContain('x-api-key');
    expect(within(section).getByRole('button', { name: `Copy ${name} snippet` })).toBeTruthy();
  }
});

describe('snippets', () => {
  const v = { url: 'https://hb.example', publishableKey: 'hb_publishable_k' };

  it('the SDK one imports createClient, signs up, inserts, uploads and downloads', () => {
    const s = sdkSnippet(v);
    expect(s).toMatch(/^import \{ createClient \} from '@hostbase\/client';/);
    expect(s).toContain(`createClient("https://hb.example", "hb_publishable_k")`);
    for (const call of ['hb.auth.signUp(', "hb.db.from(\"notes\").insert(", 'hb.storage.upload(', 'hb.storage.download(']) expect(s).toContain(call);
  });

  it('fetch and curl send the key in X-Hostbase-Key and the user in X-Hostbase-User-Token, to /api', () => {
    for (const s of [fetchSnippet(v), curlSnippet(v)]) {
      expect(s).toContain('https://hb.example/api');
      expect(s).toContain('X-Hostbase-Key');
      expect(s).toContain('X-Hostbase-User-Token');
      expect(s).not.toMatch(/authorization|x-api-key/i);
    }
  });

  it('the fetch one is a valid module body (it parses)', () => {
    // An async function body accepts the snippet's top-level await as a module would.
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (body: string) => unknown;
    expect(() => new AsyncFunction(fetchSnippet(v))).not.toThrow();
    expect(() => new AsyncFunction(sdkSnippet(v).replace(/^import .*$/m, ''))).not.toThrow();
  });
});
