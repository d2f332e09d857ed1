// Where a project's site is served, for links: the scheme and port of PUBLIC_URL (the platform's
// own address, which serves sites on the same port) with the project's domain. The default
// PUBLIC_URL http://localhost:3000 gives http://shop.localhost:3000, not a dead https://shop.localhost.
export function siteUrl(publicUrl: string, domain: string): string {
  const base = new URL(publicUrl);
  const url = new URL(`${base.protocol}//${domain}`);
  url.port = base.port; // '' for the scheme's default port
  return url.origin;
}
