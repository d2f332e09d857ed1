// What a deployment of each project type must contain, and which folder of it is served or run.
import path from 'node:path';
import { ZipRefusedError } from './zip-extract';
import { JsonLimitError, parseBoundedJson } from '../../../platform/json-limits';
import type { RuntimeKind } from '../runtime';

// The contract's ProjectType enum (openapi.yaml, generated into shared/generated/contract.ts).
export { PROJECT_TYPES, type ProjectType } from '../../../../../shared/rules';
export type { RuntimeKind };

/** Types served as files; Next.js and Astro as their static export (out/, dist/). */
export function runtimeOf(type: string): RuntimeKind | undefined {
  if (type === 'Node' || type === 'Node.js') return 'node';
  if (type === 'PHP') return 'php';
  if (type === 'Flask') return 'flask';
  return undefined;
}

/**
 * What runs a deployment: a build from source decided it (a Next.js upload may be a static export
 * or a Node server); uploads served as they came follow their type.
 */
export function deploymentKind(d: { type: string; runtime?: string | null }): RuntimeKind | undefined {
  if (d.runtime) return d.runtime === 'static' ? undefined : (d.runtime as RuntimeKind);
  return runtimeOf(d.type);
}

/** Single-page apps: unknown paths without an extension answer index.html (client routes). */
export function isSpa(type: string): boolean {
  return type === 'React' || type === 'Vite' || type === 'Angular' || type === 'Vue';
}

export interface Layout {
  /** Folder (relative, '' = top) that is served or run. */
  root: string;
  /** Runtime types: the file to start, relative to root. */
  entry?: string;
}

const BUILD_FOLDERS = ['dist', 'build', 'out'];

export function staticLayout(names: Set<string>): Layout {
  if (names.has('index.html')) return { root: '' };
  const found = BUILD_FOLDERS.filter((d) => names.has(`${d}/index.html`));
  if (found.length === 0) {
    const nested = angularRoot(names);
    if (nested !== undefined) return { root: nested };
  }
  if (found.length === 1) return { root: found[0] };
  if (found.length > 1) throw new ZipRefusedError(`The zip has index.html in several build folders (${found.join(', ')}); keep one.`);
  throw new ZipRefusedError('No index.html found: put it at the top of the zip or in one build folder (dist/, build/ or out/).');
}

/**
 * Angular CLI builds to dist/<app>/ (or dist/<app>/browser/ since v17, next to server/ for SSR).
 * Zipping the dist/ folder itself makes the zip's single top folder (dist/) a wrapper that
 * planZip strips, leaving <app>/browser/index.html; zipping dist/<app>/ leaves browser/index.html.
 * All of these are the one folder to serve when no other index.html competes.
 */
function angularRoot(names: Set<string>): string | undefined {
  const browser = [...names].filter((n) => /^(dist\/)?([^/]+\/)?browser\/index\.html$/.test(n));
  if (browser.length === 1) return path.posix.dirname(browser[0]);
  if (browser.length > 1) return undefined;
  const nested = [...names].filter((n) => /^(dist\/)?[^/]+\/index\.html$/.test(n));
  const inDist = nested.filter((n) => n.startsWith('dist/'));
  const pick = inDist.length ? inDist : nested;
  return pick.length === 1 ? path.posix.dirname(pick[0]) : undefined;
}

export async function runtimeLayout(kind: RuntimeKind, names: Set<string>, read: (name: string) => Promise<string>): Promise<Layout> {
  if (kind === 'php') {
    if (names.has('index.php') || names.has('index.html')) return { root: '', entry: names.has('index.php') ? 'index.php' : 'index.html' };
    throw new ZipRefusedError('PHP sites need an index.php at the top of the zip.');
  }
  if (kind === 'flask') {
    const entry = ['app.py', 'main.py', 'wsgi.py'].find((n) => names.has(n));
    if (entry) return { root: '', entry };
    throw new ZipRefusedError('Flask sites need an app.py (with a Flask object named app) at the top of the zip.');
  }
  let main: string | undefined;
  if (names.has('package.json')) {
    try {
      const pkg = parseBoundedJson(await read('package.json'), 'package.json') as { main?: unknown };
      if (typeof pkg.main === 'string') main = path.posix.normalize(pkg.main.replace(/^\.\//, ''));
    } catch (err) {
      throw new ZipRefusedError(err instanceof JsonLimitError ? `${err.message}.` : 'package.json is not valid JSON.');
    }
  }
  if (main && !main.startsWith('..') && !path.posix.isAbsolute(main)) {
    const candidates = [main, `${main}.js`, `${main}/index.js`];
    const hit = candidates.find((c) => names.has(c));
    if (hit) return { root: '', entry: hit };
    throw new ZipRefusedError(`package.json "main" points to ${main}, which is not in the zip.`);
  }
  const entry = ['server.js', 'index.js', 'app.js', 'main.js', 'server.mjs', 'index.mjs'].find((n) => names.has(n));
  if (entry) return { root: '', entry };
  throw new ZipRefusedError('Node sites need package.json "main", or a server.js or index.js at the top of the zip.');
}
