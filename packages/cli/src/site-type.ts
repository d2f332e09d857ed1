// What kind of site a folder holds, when `hostbase deploy` is not told (--type). The type decides
// whether the platform builds the upload: a Static upload is served as it is, so source code of a
// framework must be named by its framework. package.json's dependencies name it the way the
// platform's own detection reads them (server builds/detect.ts).

/** `names`: the folder's files ("/"-separated); `read`: a file's text. */
export function guessType(names: string[], read: (name: string) => string): string {
  const has = (n: string) => names.includes(n);
  // PHP before package.json: a PHP app (Laravel…) often has a package.json for its assets.
  if (has('composer.json') || names.some((n) => !n.includes('/') && n.endsWith('.php'))) return 'PHP';
  if (has('requirements.txt') || has('app.py')) return 'Flask';
  if (!has('package.json')) return 'Static';
  let deps: Record<string, unknown> = {};
  try {
    const pkg = JSON.parse(read('package.json')) as { dependencies?: Record<string, unknown>; devDependencies?: Record<string, unknown> };
    deps = { ...pkg.dependencies, ...pkg.devDependencies };
  } catch {
    // Unreadable: the platform says what is wrong with it.
  }
  const dep = (d: string) => typeof deps[d] === 'string';
  if (dep('next')) return 'Next.js';
  if (dep('astro')) return 'Astro';
  if (dep('@angular/core') || dep('@angular/cli')) return 'Angular';
  if (dep('vue')) return 'Vue';
  if (dep('react-scripts')) return 'React';
  if (dep('vite')) return 'Vite';
  if (dep('react')) return 'React';
  // No framework: a page with its tooling's package.json is a static site, else a Node app.
  return has('index.html') ? 'Static' : 'Node';
}

/** The types `--type` accepts (Node.js: the platform's other name for Node). */
export const TYPES = ['Static', 'Node', 'PHP', 'Flask', 'React', 'Vite', 'Angular', 'Next.js', 'Vue', 'Astro', 'Node.js'];
