// What a source upload needs to become a site: the framework (from package.json dependencies and
// scripts, composer.json, requirements.txt), the install and build commands, and what the build
// leaves (a folder of files, or a process to start). The rules follow what Vercel, Netlify and
// Render users expect; every part can be overridden per site (BuildSettings). A plan of null means
// "already built": the deploy goes on as an upload of finished files.
import path from 'node:path';
import { ZipRefusedError } from '../deploy';
import { JsonLimitError, parseBoundedJson } from '../../../platform/json-limits';

export interface BuildSettings {
  rootDirectory?: string | null;
  installCommand?: string | null;
  buildCommand?: string | null;
  startCommand?: string | null;
  outputDirectory?: string | null;
}

export type Framework = 'React' | 'Vite' | 'Vue' | 'Angular' | 'Astro' | 'Next.js' | 'Node' | 'PHP' | 'Flask' | 'Static';

export type DepsDir = 'node_modules' | '.venv' | 'vendor';

export interface BuildPlan {
  framework: Framework;
  /** Why, for the build log: "Detected Vite (package.json: vite, scripts.build)". */
  reason: string;
  /** Relative source folder ('' = top). */
  root: string;
  install?: { command: string; lockfiles: string[]; cacheDir: DepsDir };
  build?: string;
  output: { kind: 'static'; dir?: string } | { kind: 'node' | 'php' | 'flask' };
  /** A node site's start command, from the settings or package.json scripts.start. */
  start?: string;
}

interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
  main?: string;
}

const JS_TYPES = new Set(['React', 'Vite', 'Vue', 'Angular', 'Astro', 'Next.js']);
const BUILT_FOLDERS = ['dist', 'build', 'out'];

/** A relative folder inside the upload; '..', absolute paths and odd characters are refused. */
export function safeRelative(value: string | null | undefined, what: string): string {
  if (!value) return '';
  const v = value.trim().replace(/\\/g, '/');
  // eslint-disable-next-line no-control-regex -- control characters are matched on purpose, to refuse them
  if (v.startsWith('/') || /^[a-zA-Z]:/.test(v) || /[\u0000-\u001f\u007f]/.test(v)) throw new ZipRefusedError(`The ${what} must be a folder inside the upload, like "web" (got ${JSON.stringify(value)}).`);
  const parts = v.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new ZipRefusedError(`The ${what} must stay inside the upload (no "..": got ${JSON.stringify(value)}).`);
  return parts.join('/');
}

export async function detectBuild(type: string, names: Set<string>, read: (name: string) => Promise<string>, settings: BuildSettings = {}): Promise<BuildPlan | null> {
  const root = safeRelative(settings.rootDirectory, 'root directory');
  const outputOverride = settings.outputDirectory ? safeRelative(settings.outputDirectory, 'output directory') : undefined;
  // Names relative to the root directory.
  const prefix = root ? `${root}/` : '';
  const inRoot = new Set<string>();
  for (const n of names) if (n.startsWith(prefix)) inRoot.add(n.slice(prefix.length));
  if (root && inRoot.size === 0) throw new ZipRefusedError(`The root directory "${root}" is not in the upload.`);
  const readIn = (n: string) => read(prefix + n);

  const plan = await detected(type, inRoot, readIn, root);
  const overridden = Boolean(settings.installCommand || settings.buildCommand || settings.startCommand || outputOverride);
  if (!plan && !overridden) return null;
  const p: BuildPlan = plan ?? { framework: frameworkOfType(type), reason: 'build settings of the site', root, output: outputFor(type) };
  if (settings.installCommand) p.install = { command: settings.installCommand, lockfiles: p.install?.lockfiles ?? lockfilesIn(inRoot), cacheDir: p.install?.cacheDir ?? depsDirOf(p.output.kind) };
  if (settings.buildCommand) p.build = settings.buildCommand;
  if (settings.startCommand) p.start = settings.startCommand;
  if (outputOverride !== undefined && p.output.kind === 'static') p.output = { kind: 'static', dir: outputOverride };
  if (overridden) p.reason += ', with the site\'s build settings';
  return p;
}

function frameworkOfType(type: string): Framework {
  if (type === 'Node.js') return 'Node';
  return (['React', 'Vite', 'Vue', 'Angular', 'Astro', 'Next.js', 'Node', 'PHP', 'Flask'] as const).find((f) => f === type) ?? 'Static';
}

function outputFor(type: string): BuildPlan['output'] {
  if (type === 'Node' || type === 'Node.js') return { kind: 'node' };
  if (type === 'PHP') return { kind: 'php' };
  if (type === 'Flask') return { kind: 'flask' };
  return { kind: 'static' };
}

function depsDirOf(kind: BuildPlan['output']['kind']): DepsDir {
  return kind === 'flask' ? '.venv' : kind === 'php' ? 'vendor' : 'node_modules';
}

function lockfilesIn(names: Set<string>): string[] {
  return ['package-lock.json', 'npm-shrinkwrap.json', 'requirements.txt', 'composer.lock'].filter((n) => names.has(n));
}

async function packageJson(names: Set<string>, read: (n: string) => Promise<string>): Promise<PackageJson | undefined> {
  if (!names.has('package.json')) return undefined;
  try {
    const pkg = parseBoundedJson(await read('package.json'), 'package.json');
    if (!pkg || typeof pkg !== 'object' || Array.isArray(pkg)) throw new Error('not an object');
    return pkg as PackageJson;
  } catch (err) {
    throw new ZipRefusedError(err instanceof JsonLimitError ? `${err.message}.` : 'package.json is not valid JSON.');
  }
}

/** `npm ci` needs the lockfile; without one `npm install` resolves from package.json. */
function npmInstall(names: Set<string>): NonNullable<BuildPlan['install']> {
  const locked = names.has('package-lock.json') || names.has('npm-shrinkwrap.json');
  const lockfiles = locked ? ['package-lock.json', 'npm-shrinkwrap.json'].filter((n) => names.has(n)) : ['package.json'];
  return { command: locked ? 'npm ci' : 'npm install', lockfiles, cacheDir: 'node_modules' };
}

async function detected(type: string, names: Set<string>, read: (n: string) => Promise<string>, root: string): Promise<BuildPlan | null> {
  if (type === 'PHP') {
    if (!names.has('composer.json') || names.has('vendor/autoload.php')) return null;
    const lockfiles = names.has('composer.lock') ? ['composer.lock'] : ['composer.json'];
    return { framework: 'PHP', reason: 'composer.json', root, install: { command: 'composer install --no-dev --no-interaction --prefer-dist --no-progress', lockfiles, cacheDir: 'vendor' }, output: { kind: 'php' } };
  }
  if (type === 'Flask') {
    if (!names.has('requirements.txt') || names.has('.venv/bin/python')) return null;
    // --system-site-packages: Debian's python3-flask satisfies "Flask" without an index.
    const install = '/usr/bin/python3 -m venv --system-site-packages --copies .venv && .venv/bin/pip install --disable-pip-version-check --no-input -r requirements.txt';
    return { framework: 'Flask', reason: 'requirements.txt', root, install: { command: install, lockfiles: ['requirements.txt'], cacheDir: '.venv' }, output: { kind: 'flask' } };
  }
  if (type === 'Static') return null;
  const pkg = await packageJson(names, read);
  if (!pkg) return null;
  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  const has = (d: string) => typeof deps[d] === 'string';
  const scripts = pkg.scripts ?? {};
  const script = (s: string) => typeof scripts[s] === 'string' && scripts[s].trim() !== '';
  const needsInstall = Object.keys(deps).length > 0 && !names.has('node_modules/.package-lock.json') && ![...names].some((n) => n.startsWith('node_modules/'));

  if (type === 'Node' || type === 'Node.js') {
    if (!needsInstall && !script('build')) return null;
    const why = [needsInstall && 'dependencies', script('build') && 'scripts.build'].filter(Boolean).join(', ');
    return {
      framework: 'Node', reason: `package.json: ${why}`, root, install: needsInstall ? npmInstall(names) : undefined,
      build: script('build') ? 'npm run build' : undefined, output: { kind: 'node' }, start: script('start') ? scripts.start : undefined,
    };
  }
  if (!JS_TYPES.has(type)) return null;
  // A JS framework upload: built output alongside package.json means it was built already.
  if (!script('build')) return null;
  if (BUILT_FOLDERS.some((d) => names.has(`${d}/index.html`)) || names.has('index.html') && !has('vite')) return null;
  const framework = frameworkOf(has, type);
  const found = [frameworkDep(framework, has), 'scripts.build'].filter(Boolean).join(', ');
  const plan: BuildPlan = { framework, reason: `package.json: ${found}`, root, install: needsInstall ? npmInstall(names) : undefined, build: 'npm run build', output: { kind: 'static' } };
  if (framework === 'Next.js') {
    if (await isNextExport(names, read)) plan.output = { kind: 'static', dir: 'out' };
    else {
      plan.output = { kind: 'node' };
      plan.start = script('start') ? scripts.start : 'next start';
    }
  } else if (framework === 'Angular') plan.output = { kind: 'static', dir: await angularOutput(names, read) };
  else if (framework === 'React' && has('react-scripts')) plan.output = { kind: 'static', dir: 'build' };
  else plan.output = { kind: 'static', dir: 'dist' };
  return plan;
}

/** package.json decides; the deploy form's type breaks ties (React on Vite is "Vite" to the form user too). */
function frameworkOf(has: (d: string) => boolean, type: string): Framework {
  if (has('next')) return 'Next.js';
  if (has('astro')) return 'Astro';
  if (has('@angular/core') || has('@angular/cli')) return 'Angular';
  if (has('vue')) return 'Vue';
  if (has('react-scripts')) return 'React';
  if (has('vite')) return type === 'React' && has('react') ? 'React' : 'Vite';
  if (has('react')) return 'React';
  return frameworkOfType(type);
}

function frameworkDep(f: Framework, has: (d: string) => boolean): string | undefined {
  const candidates: Record<string, string[]> = {
    'Next.js': ['next'], Astro: ['astro'], Angular: ['@angular/core', '@angular/cli'], Vue: ['vue', 'vite'], React: ['react-scripts', 'vite', 'react'], Vite: ['vite'],
  };
  const found = (candidates[f] ?? []).filter(has);
  return found.length ? found.join(', ') : undefined;
}

async function isNextExport(names: Set<string>, read: (n: string) => Promise<string>): Promise<boolean> {
  for (const n of ['next.config.js', 'next.config.mjs', 'next.config.ts', 'next.config.cjs']) {
    if (!names.has(n)) continue;
    const text = await read(n);
    if (/output\s*:\s*['"`]export['"`]/.test(text)) return true;
  }
  return false;
}

/** angular.json's outputPath (a string, or { base, browser }) decides; else dist/<project>/browser. */
async function angularOutput(names: Set<string>, read: (n: string) => Promise<string>): Promise<string | undefined> {
  if (!names.has('angular.json')) return undefined;
  let config: { defaultProject?: string; projects?: Record<string, { architect?: { build?: { builder?: string; options?: { outputPath?: unknown } } } }> };
  try {
    config = parseBoundedJson(await read('angular.json'), 'angular.json') as typeof config;
  } catch (err) {
    throw new ZipRefusedError(err instanceof JsonLimitError ? `${err.message}.` : 'angular.json is not valid JSON.');
  }
  const projects = Object.entries(config.projects ?? {});
  const [name, project] = projects.find(([n]) => n === config.defaultProject) ?? projects[0] ?? [];
  if (!name) return undefined;
  const build = project?.architect?.build;
  const out = build?.options?.outputPath;
  // The application builder (v17+) writes browser files to <outputPath>/browser.
  const modern = !build?.builder || /:application$/.test(build.builder);
  if (typeof out === 'string') return path.posix.normalize(modern ? `${out}/browser` : out);
  if (out && typeof out === 'object') {
    const o = out as { base?: string; browser?: string };
    if (o.base) return path.posix.normalize(o.browser === '' ? o.base : `${o.base}/${o.browser ?? 'browser'}`);
  }
  return `dist/${name}/browser`;
}
