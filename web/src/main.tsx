// Base styles first: area stylesheets loaded by the routes refine them.
import './styles/base.css';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from './api/http';
import { ToastProvider } from './components/Toast';
import { PageLoader } from './components/States';
import { clearToken } from './lib/session';
import { createAppRouter } from './router';

const router = createAppRouter();

const queryClient = new QueryClient({
  queryCache: new QueryCache({
    // A console query answered 401 means the session ended: back to the sign-in page.
    onError: (err) => {
      if (err instanceof ApiError && err.status === 401) {
        const path = window.location.pathname;
        if (/^\/(console|project|dashboard)(\/|$)/.test(path)) {
          clearToken();
          void router.navigate('/auth/login', { replace: true });
        }
      }
    },
  }),
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: false,
      staleTime: 10_000,
      // Retry only what may pass on a second try: network failures and gateway/unavailable answers.
      retry: (count, err) => count < 2 && (!(err instanceof ApiError) || err.status === 0 || [502, 503, 504].includes(err.status)),
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <Suspense fallback={<PageLoader />}>
          <RouterProvider router={router} />
        </Suspense>
      </ToastProvider>
    </QueryClientProvider>
  </StrictMode>,
);
