// Base styles first: area stylesheets loaded by the routes refine them.
import './styles/base.css';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { QueryProvider } from './api/QueryProvider';
import { ToastProvider } from './components/Toast';
import { PageLoader } from './components/States';
import { clearToken } from './lib/session';
import { createAppRouter } from './router';

const router = createAppRouter();

// A console query answered 401 means the session ended: back to the sign-in page.
function onSessionEnded() {
  if (/^\/(console|project|dashboard)(\/|$)/.test(window.location.pathname)) {
    clearToken();
    void router.navigate('/auth/login', { replace: true });
  }
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ToastProvider>
      <QueryProvider onSessionEnded={onSessionEnded}>
        <Suspense fallback={<PageLoader />}>
          <RouterProvider router={router} />
        </Suspense>
      </QueryProvider>
    </ToastProvider>
  </StrictMode>,
);
