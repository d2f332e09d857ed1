// The public pages rendered to HTML at build time (web/prerender.mts): the first paint of a cold
// visit is the page itself, before any script has run. The client then renders the same tree over
// it (main.tsx), so nothing moves. Only pages without style attributes: the console's policy
// (style-src 'self') would block those in markup.
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import PublicLayout from './features/marketing/PublicLayout';
import Landing from './features/marketing/Landing';
import Pricing from './features/marketing/Pricing';
import Careers from './features/marketing/Careers';

export const PRERENDERED_PAGES = ['/', '/pricing', '/careers'];

export function render(url: string): string {
  return renderToString(
    <StrictMode>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route element={<PublicLayout />}>
            <Route index element={<Landing />} />
            <Route path="pricing" element={<Pricing />} />
            <Route path="careers" element={<Careers />} />
          </Route>
        </Routes>
      </MemoryRouter>
    </StrictMode>,
  );
}
