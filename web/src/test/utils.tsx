// Test helpers: a fetch double that answers per path, and a render with the app's providers.
import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { QueryProvider } from '../api/QueryProvider';
import { ToastProvider } from '../components/Toast';

export interface FakeAnswer {
  status?: number;
  body?: unknown;
}
export type FetchHandler = (path: string, body: unknown, init: RequestInit) => FakeAnswer | Promise<FakeAnswer>;

export function mockFetch(handler: FetchHandler): jest.Mock {
  const fn = jest.fn(async (url: string, init: RequestInit = {}) => {
    let body: unknown = undefined;
    if (typeof init.body === 'string') {
      try {
        body = JSON.parse(init.body);
      } catch {
        body = init.body;
      }
    }
    const answer = await handler(String(url), body, init);
    const status = answer.status ?? 200;
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    return {
      ok: status >= 200 && status < 300,
      status,
      headers: new Headers({ 'content-type': 'application/json' }),
      text: async () => text,
    };
  });
  (globalThis as { fetch?: unknown }).fetch = fn;
  return fn;
}

export function renderWithProviders(ui: ReactElement, { route = '/', path = '*', extraRoutes }: { route?: string; path?: string; extraRoutes?: ReactNode } = {}) {
  return render(
    <ToastProvider>
      <QueryProvider retry={false}>
        <MemoryRouter initialEntries={[route]}>
          <Routes>
            <Route path={path} element={ui} />
            {extraRoutes}
          </Routes>
        </MemoryRouter>
      </QueryProvider>
    </ToastProvider>,
  );
}
