// What crawlers are told about the platform's own site: robots.txt and sitemap.xml, made at start
// from PUBLIC_URL (the sitemap's addresses are absolute). The public pages are SPEC section 2's
// public routes; everything behind a sign-in, the sign-in flows and the API stay out of indexes.

/** SPEC section 2, public routes, in its order. */
export const PUBLIC_PAGES = ['/', '/pricing', '/docs', '/about', '/blog', '/careers', '/contact'] as const;

/** Prefixes no crawler needs: the API, the sign-in flows, the console and the mails' landing pages. */
const PRIVATE_PREFIXES = ['/api/', '/auth/', '/console', '/dashboard', '/project/', '/verify-email', '/email-verified'];

export function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...PRIVATE_PREFIXES.map((p) => `Disallow: ${p}`),
    '',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

const xmlEscape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function sitemapXml(publicUrl: string): string {
  const urls = PUBLIC_PAGES.map((p) => `  <url><loc>${xmlEscape(publicUrl + (p === '/' ? '/' : p))}</loc></url>`);
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, '</urlset>', ''].join('\n');
}
