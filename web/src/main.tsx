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

const container = document.getElementById('root')!;
const start = () => createRoot(container).render(
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

// A prerendered public page (web/prerender.mts) is already on screen: let the browser paint it
// before React renders the same tree over it, instead of holding that first frame behind the work.
if (container.hasChildNodes()) requestAnimationFrame(() => setTimeout(start, 0));
else start();
