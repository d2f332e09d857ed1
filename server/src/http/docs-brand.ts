// Hostbase's name and mark on the API reference page (Swagger UI's top bar, tab title and icon),
// so /api/docs reads as the product's and not as the framework's. The mark is the console's
// favicon (web/public/favicon.svg), drawn here too: the server serves the page without the
// console's build.

const MARK = '<rect width="32" height="32" rx="8" fill="#4f46e5"/><path d="M9 8v16M23 8v16M9 16h14" stroke="#fff" stroke-width="3.2" stroke-linecap="round"/>';

/** The mark alone: the page's favicon. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${MARK}</svg>`;

/** The mark and the name, white text for Swagger UI's dark top bar. */
export const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 190 32" width="190" height="32">' +
  MARK +
  '<text x="42" y="23" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="20" font-weight="700" fill="#fff">Hostbase API</text>' +
  '</svg>';

export const PAGE_TITLE = 'Hostbase API reference';
