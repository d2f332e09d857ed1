// Content types for what sites are built from. A small table instead of mime-db: these cover
// what bundlers emit, and anything else is safely application/octet-stream.
const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8', htm: 'text/html; charset=utf-8', css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8', mjs: 'text/javascript; charset=utf-8', cjs: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8', map: 'application/json; charset=utf-8', webmanifest: 'application/manifest+json; charset=utf-8',
  txt: 'text/plain; charset=utf-8', md: 'text/markdown; charset=utf-8', csv: 'text/csv; charset=utf-8', xml: 'application/xml; charset=utf-8',
  svg: 'image/svg+xml', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp',
  avif: 'image/avif', ico: 'image/x-icon', bmp: 'image/bmp',
  woff: 'font/woff', woff2: 'font/woff2', ttf: 'font/ttf', otf: 'font/otf', eot: 'application/vnd.ms-fontobject',
  wasm: 'application/wasm', pdf: 'application/pdf', zip: 'application/zip',
  mp4: 'video/mp4', webm: 'video/webm', mp3: 'audio/mpeg', wav: 'audio/wav', ogg: 'audio/ogg',
};

export function mimeType(file: string): string {
  const dot = file.lastIndexOf('.');
  if (dot < 0 || dot < file.lastIndexOf('/')) return 'application/octet-stream';
  return TYPES[file.slice(dot + 1).toLowerCase()] ?? 'application/octet-stream';
}

export function isCompressible(contentType: string): boolean {
  return /^(text\/|application\/(json|javascript|xml|manifest\+json|wasm)|image\/svg\+xml|font\/(ttf|otf))/.test(contentType);
}
