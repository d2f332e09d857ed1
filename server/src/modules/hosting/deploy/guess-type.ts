// A deploy's site type when the developer leaves it to the platform (type "auto"): read from the
// archive's file names and package.json, by the rules the CLI's `hostbase deploy` uses without
// --type (packages/client/src/site-type.ts), so the console and the CLI pick the same type.
import type { ProjectType } from './site-layout';
import { planZip, readPlannedText, type ZipLimits, type ZipSource } from './zip-extract';

// A package.json past this is not one a detection should parse; the build reads it with its own limits.
const PACKAGE_JSON_MAX = 1024 * 1024;

/** `names`: the archive's files ("/"-separated, wrapper folder stripped); `read`: a file's text. */
export async function guessType(names: Set<string>, read: (name: string) => Promise<string | undefined>): Promise<ProjectType> {
  const has = (n: string) => names.has(n);
  // PHP before package.json: a PHP app (Laravel…) often has a package.json for its assets.
  if (has('composer.json') || [...names].some((n) => !n.includes('/') && n.endsWith('.php'))) return 'PHP';
  if (has('requirements.txt') || has('app.py')) return 'Flask';
  if (!has('package.json')) return 'Static';
  let deps: Record<string, unknown> = {};
  try {
    const pkg = JSON.parse((await read('package.json')) ?? '{}') as { dependencies?: Record<string, unknown>; devDependencies?: Record<string, unknown> };
    deps = { ...pkg.dependencies, ...pkg.devDependencies };
  } catch {
    // Unreadable: the build says what is wrong with it.
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

/** The type of an uploaded archive; a damaged one is refused here as the deploy would refuse it. */
export async function guessZipType(zip: ZipSource, limits?: ZipLimits): Promise<ProjectType> {
  const plan = await planZip(zip, limits);
  try {
    return await guessType(new Set(plan.files.map((f) => f.name)), (n) => readPlannedText(plan, n, PACKAGE_JSON_MAX));
  } finally {
    plan.close();
  }
}
