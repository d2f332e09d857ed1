// The app's QueryClient: retry rules, the redirect when a console session ends, and the one
// default for a failed mutation (a toast), so mutations do not each repeat their error handling.
import { MutationCache, QueryCache, QueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError, errorMessage } from './http';

/**
 * What a mutation says about its own failure, in the `meta` of useMutation or of a generated hook
 * (`useX({ mutation: { meta } })`).
 */
export type MutationMeta = {
  /**
   * - left out: the toast's title is the error's message;
   * - a string: the toast's title, with the error's message as its detail;
   * - { title, offline }: the same, but a failure that never reached the server toasts `offline` alone;
   * - false: the page shows the error itself (inline, next to the form): no toast.
   */
  errorToast?: string | { title: string; offline: string } | false;
};

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: MutationMeta;
  }
}

/** Generated-hook options for a mutation whose page shows its error inline. */
export const inlineError = { mutation: { meta: { errorToast: false } } } as const;

export type ErrorToast = (title: string, detail?: string) => void;

/** The toast a failed mutation gets by default; null when its page shows the error. */
export function mutationErrorToast(err: unknown, meta: MutationMeta | undefined): { title: string; detail?: string } | null {
  const spec = meta?.errorToast;
  if (spec === false) return null;
  if (spec === undefined) return { title: errorMessage(err) };
  if (typeof spec === 'string') return { title: spec, detail: errorMessage(err) };
  if (err instanceof ApiError && err.status > 0) return { title: spec.title, detail: err.serverMessage };
  return { title: spec.offline };
}

/**
 * Every cached answer of one operation, whatever its body or page: the first element of the key
 * a generated `get…QueryKey()` builds (its path), for invalidating or removing them all.
 */
export function allOf(key: QueryKey): QueryKey {
  return key.slice(0, 1);
}

// Retry only what may pass on a second try: network failures and gateway/unavailable answers.
function retryable(count: number, err: unknown): boolean {
  return count < 2 && (!(err instanceof ApiError) || err.status === 0 || [502, 503, 504].includes(err.status));
}

export interface QueryClientOptions {
  /** Shows a failed mutation's error toast. */
  toastError: ErrorToast;
  /** A console query answered 401: the session ended. */
  onSessionEnded?: () => void;
  /** Tests: no retries. */
  retry?: false;
}

export function createQueryClient({ toastError, onSessionEnded, retry }: QueryClientOptions): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (err) => {
        if (err instanceof ApiError && err.status === 401) onSessionEnded?.();
      },
    }),
    mutationCache: new MutationCache({
      onError: (err, _vars, _ctx, mutation) => {
        const toast = mutationErrorToast(err, mutation.meta);
        if (toast) toastError(toast.title, toast.detail);
      },
    }),
    defaultOptions: {
      queries: { refetchOnWindowFocus: false, staleTime: 10_000, retry: retry ?? retryable },
      mutations: retry === false ? { retry: false } : {},
    },
  });
}
