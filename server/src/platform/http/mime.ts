// The one source of content types: the mime-types package (mime-db), plus the few choices that
// are ours, kept here. Static sites and stored files both ask this module.
import mime from 'mime-types';

const OCTET = 'application/octet-stream';

/** Where mime-db's answer is not the one browsers and bundlers expect from us. */
const OVERRIDES: Record<string, string> = {
  cjs: 'text/javascript', // mime-db says application/node: a browser would not run it
  ico: 'image/x-icon', // what every browser sends and expects; mime-db has image/vnd.microsoft.icon
  flac: 'audio/flac',
};

/** The bare type for a file name (no parameters), or undefined when the extension is unknown. */
export function typeByName(name: string): string | undefined {
  const slash = name.lastIndexOf('/');
  const dot = name.lastIndexOf('.');
  if (dot < 0 || dot < slash) return undefined;
  const ext = name.slice(dot + 1).toLowerCase();
  return OVERRIDES[ext] ?? (mime.lookup(ext) || undefined);
}

/**
 * The Content-Type a static site serves a file with: text types (and JSON, XML, manifests,
 * JavaScript) say UTF-8; an unknown extension is application/octet-stream.
 */
export function siteContentType(file: string): string {
  const type = typeByName(file);
  if (!type) return OCTET;
  const withCharset = mime.contentType(type);
  if (withCharset && withCharset !== type) return withCharset;
  return /^application\/(xml|.*\+xml|.*\+json)$/.test(type) && type !== 'image/svg+xml' ? `${type}; charset=utf-8` : type;
}

/** Worth compressing on the way out (text-like); images, video, fonts like woff2 already are. */
export function isCompressible(contentType: string): boolean {
  return /^(text\/|application\/(json|javascript|xml|manifest\+json|wasm)|image\/svg\+xml|font\/(ttf|otf))/.test(contentType);
}
