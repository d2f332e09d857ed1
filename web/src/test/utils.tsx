// Test helpers: a fetch double that answers per path, and a render with the app's providers.
import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { QueryProvider } from '../api/QueryProvider';
import { ToastProvider } from '../components/Toast';

export interface FakeAnswer {
  status?: number;
  body?: unknown;
  /** A streamed body (Server-Sent Events) the test writes into as it goes; see fakeStream. */
  stream?: FakeStream;
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
    if (answer.stream) {
      const stream = answer.stream;
      init.signal?.addEventListener('abort', () => stream.fail(new DOMException('The operation was aborted.', 'AbortError')));
      return { ok: status >= 200 && status < 300, status, headers: new Headers({ 'content-type': 'text/event-stream' }), body: stream.body, text: async () => '' };
    }
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

export type FakeStream = ReturnType<typeof fakeStream>;

/**
 * A response body read through getReader(), written by the test: `send` text (or bytes, to split a
 * character), then `end`. jsdom has no ReadableStream; the reader is the part fetch callers use.
 */
export function fakeStream() {
  const queue: ({ value: Uint8Array } | { done: true } | { error: unknown })[] = [];
  let wake: (() => void) | null = null;
  const push = (item: (typeof queue)[number]) => {
    queue.push(item);
    wake?.();
  };
  const reader = {
    async read(): Promise<{ done: boolean; value?: Uint8Array }> {
      while (!queue.length) await new Promise<void>((r) => (wake = r));
      const item = queue.shift()!;
      if ('error' in item) throw item.error;
      return 'done' in item ? { done: true, value: undefined } : { done: false, value: item.value };
    },
    async cancel() {
      push({ done: true });
    },
    releaseLock() {},
  };
  return {
    body: { getReader: () => reader },
    send: (text: string) => push({ value: new TextEncoder().encode(text) }),
    sendBytes: (bytes: Uint8Array) => push({ value: bytes }),
    end: () => push({ done: true }),
    fail: (error: unknown) => push({ error }),
  };
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
