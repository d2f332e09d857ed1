// The gateway's own pages, shown when a site has nothing of its own to say.
const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<title>${title}</title><style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:100vh;margin:0;` +
  `background:#0f172a;color:#e2e8f0}main{text-align:center;max-width:32rem;padding:2rem}h1{font-size:1.6rem}p{color:#94a3b8}</style>` +
  `</head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;

export const notFoundPage = () => page('404 - Page not found', 'This page does not exist on this site.');

export const noSitePage = (domain: string) =>
  page('No site deployed yet', `${escapeHtml(domain)} is ready, but nothing has been deployed to it. Upload a zip from the project's Hosting page in the Hostbase console.`);

export const unknownSitePage = (domain: string) => page('Site not found', `There is no Hostbase project at ${escapeHtml(domain)}.`);

export const unavailablePage = () => page('Site unavailable', 'The site did not answer. It may be starting or restarting; try again in a moment.');

export const bandwidthPage = (text: string) => page('Bandwidth limit reached', `${escapeHtml(text)} It is back when the month turns or its owner upgrades the plan.`);

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
