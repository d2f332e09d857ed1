// Which uploads get built, and how: a table of uploads (file names and the few files detection
// reads) against the plan; the site's build settings override each part; an Angular build zipped
// as its dist/ folder deploys as the files it is.
import { detectBuild, type BuildPlan, type BuildSettings } from '../../../server/src/modules/hosting/build/detect';
import { staticLayout } from '../../../server/src/modules/hosting/deploy/site-layout';
import { planZip, ZipRefusedError } from '../../../server/src/modules/hosting/deploy/zip-extract';
import { makeZip } from '../zips';

type Files = Record<string, string>;
const pkg = (deps: Record<string, string>, scripts: Record<string, string> = { build: 'x' }, dev: Record<string, string> = {}) =>
  JSON.stringify({ dependencies: deps, devDependencies: dev, scripts });

function detect(type: string, files: Files, settings?: BuildSettings): Promise<BuildPlan | null> {
  return detectBuild(type, new Set(Object.keys(files)), async (n) => {
    if (!(n in files)) throw new Error(`read of a missing file ${n}`);
    return files[n];
  }, settings);
}

const npmCi = { command: 'npm ci', lockfiles: ['package-lock.json'], cacheDir: 'node_modules' as const };
const npmInstall = { command: 'npm install', lockfiles: ['package.json'], cacheDir: 'node_modules' as const };

const table: [string, string, Files, Partial<BuildPlan> | null, BuildSettings?][] = [
  ['Vite + React with a lockfile', 'React', { 'package.json': pkg({ react: '18' }, { build: 'vite build' }, { vite: '6' }), 'package-lock.json': '{}', 'index.html': '' },
    { framework: 'React', reason: 'package.json: vite, react, scripts.build', install: npmCi, build: 'npm run build', output: { kind: 'static', dir: 'dist' } }],
  ['Vite without a lockfile', 'Vite', { 'package.json': pkg({}, { build: 'vite build' }, { vite: '6' }), 'index.html': '' },
    { framework: 'Vite', install: npmInstall, output: { kind: 'static', dir: 'dist' } }],
  ['Create React App', 'React', { 'package.json': pkg({ react: '18', 'react-scripts': '5' }), 'public/index.html': '' },
    { framework: 'React', reason: 'package.json: react-scripts, react, scripts.build', output: { kind: 'static', dir: 'build' } }],
  ['Vue on Vite', 'Vue', { 'package.json': pkg({ vue: '3' }, { build: 'vite build' }, { vite: '6' }) }, { framework: 'Vue', output: { kind: 'static', dir: 'dist' } }],
  ['Angular 17+ (application builder)', 'Angular', {
    'package.json': pkg({ '@angular/core': '17' }),
    'angular.json': JSON.stringify({ projects: { shop: { architect: { build: { builder: '@angular-devkit/build-angular:application', options: { outputPath: 'dist/shop' } } } } } }),
  }, { framework: 'Angular', output: { kind: 'static', dir: 'dist/shop/browser' } }],
  ['Angular 16 (browser builder)', 'Angular', {
    'package.json': pkg({ '@angular/core': '16' }),
    'angular.json': JSON.stringify({ projects: { shop: { architect: { build: { builder: '@angular-devkit/build-angular:browser', options: { outputPath: 'dist/shop' } } } } } }),
  }, { framework: 'Angular', output: { kind: 'static', dir: 'dist/shop' } }],
  ['Astro', 'Astro', { 'package.json': pkg({ astro: '4' }) }, { framework: 'Astro', output: { kind: 'static', dir: 'dist' } }],
  ['Next.js static export', 'Next.js', { 'package.json': pkg({ next: '15' }), 'next.config.mjs': "export default { output: 'export' };" },
    { framework: 'Next.js', output: { kind: 'static', dir: 'out' } }],
  ['Next.js server', 'Next.js', { 'package.json': pkg({ next: '15' }, { build: 'next build', start: 'next start -p $PORT' }) },
    { framework: 'Next.js', output: { kind: 'node' }, start: 'next start -p $PORT' }],
  ['Next.js server without scripts.start', 'Next.js', { 'package.json': pkg({ next: '15' }) }, { output: { kind: 'node' }, start: 'next start' }],
  ['package.json decides over the form\'s type', 'React', { 'package.json': pkg({ next: '15' }) }, { framework: 'Next.js' }],
  ['a built React upload (dist/ and package.json) stays as it is', 'React', { 'package.json': pkg({ react: '18' }, { build: 'vite build' }, { vite: '6' }), 'dist/index.html': '' }, null],
  ['a JS framework upload without a build script stays as it is', 'Vue', { 'package.json': pkg({ vue: '3' }, {}), 'index.html': '' }, null],
  ['an Angular build zipped as dist/ (no package.json) stays as it is', 'Angular', { 'shop/browser/index.html': '' }, null],
  ['Node with dependencies and a build script', 'Node', { 'package.json': pkg({ express: '4' }, { build: 'tsc', start: 'node dist/server.js' }), 'package-lock.json': '{}' },
    { framework: 'Node', reason: 'package.json: dependencies, scripts.build', install: npmCi, build: 'npm run build', output: { kind: 'node' }, start: 'node dist/server.js' }],
  ['Node.js with dependencies only', 'Node.js', { 'package.json': pkg({ express: '4' }, {}), 'server.js': '' }, { framework: 'Node', install: npmInstall, build: undefined, start: undefined }],
  ['Node that ships its node_modules', 'Node', { 'package.json': pkg({ express: '4' }, {}), 'node_modules/express/index.js': '', 'server.js': '' }, null],
  ['Node without dependencies', 'Node', { 'package.json': pkg({}, {}), 'server.js': '' }, null],
  ['Flask with requirements.txt', 'Flask', { 'requirements.txt': 'Flask\n', 'app.py': '' },
    { framework: 'Flask', install: { command: '/usr/bin/python3 -m venv --system-site-packages --copies .venv && .venv/bin/pip install --disable-pip-version-check --no-input -r requirements.txt', lockfiles: ['requirements.txt'], cacheDir: '.venv' }, output: { kind: 'flask' } }],
  ['Flask without requirements', 'Flask', { 'app.py': '' }, null],
  ['PHP with composer.json', 'PHP', { 'composer.json': '{}', 'composer.lock': '{}', 'index.php': '' },
    { framework: 'PHP', install: { command: 'composer install --no-dev --no-interaction --prefer-dist --no-progress', lockfiles: ['composer.lock'], cacheDir: 'vendor' }, output: { kind: 'php' } }],
  ['PHP that ships vendor/', 'PHP', { 'composer.json': '{}', 'vendor/autoload.php': '', 'index.php': '' }, null],
  ['Static is never built', 'Static', { 'package.json': pkg({ vite: '6' }), 'index.html': '' }, null],
  ['Static with a build command', 'Static', { 'index.md': '' }, { framework: 'Static', build: 'make site', output: { kind: 'static', dir: 'public' } }, { buildCommand: 'make site', outputDirectory: 'public' }],
  ['overrides: root, install, build, output', 'Vite', { 'web/package.json': pkg({}, { build: 'vite build' }, { vite: '6' }), 'web/pnpm-lock.yaml': '' },
    { root: 'web', install: { command: 'npm install --legacy-peer-deps', lockfiles: ['package.json'], cacheDir: 'node_modules' }, build: 'npm run build:prod', output: { kind: 'static', dir: 'public/app' } },
    { rootDirectory: './web/', installCommand: 'npm install --legacy-peer-deps', buildCommand: 'npm run build:prod', outputDirectory: 'public/app' }],
  ['override: start command of a Node site', 'Node', { 'package.json': pkg({ express: '4' }, { start: 'node a.js' }) }, { start: 'node b.js' }, { startCommand: 'node b.js' }],
];

// Rest parameters: rows without settings would otherwise make jest pass its `done` callback there.
test.each(table)('%s', async (...row) => {
  const [, type, files, expected, settings] = row;
  const plan = await detect(type, files, settings);
  if (expected === null) expect(plan).toBeNull();
  else expect(plan).toMatchObject(expected);
});

test.each([
  ['../outside', /no "\.\."/],
  ['/etc', /folder inside the upload/],
  ['web/../../x', /no "\.\."/],
  ['missing', /root directory "missing" is not in the upload/],
])('a root directory of %s is refused', async (rootDirectory, message) => {
  await expect(detect('Vite', { 'package.json': pkg({ vite: '6' }) }, { rootDirectory })).rejects.toThrow(message);
  await expect(detect('Vite', { 'package.json': pkg({ vite: '6' }) }, { rootDirectory })).rejects.toBeInstanceOf(ZipRefusedError);
});

test('an output directory outside the upload is refused', async () => {
  await expect(detect('Vite', { 'package.json': pkg({ vite: '6' }) }, { outputDirectory: '../../etc' })).rejects.toThrow(/no "\.\."/);
});

test('a package.json that is not JSON is refused with a message', async () => {
  await expect(detect('React', { 'package.json': '{ nope' })).rejects.toThrow('package.json is not valid JSON.');
});

// The zips a developer makes of an Angular build, through planZip as a deploy reads them.
test.each([
  ['dist/ folder of Angular 17+', ['dist/shop/browser/index.html', 'dist/shop/browser/main-ABC.js', 'dist/shop/3rdpartylicenses.txt'], 'shop/browser'],
  ['dist/ folder of Angular 17+ with SSR', ['dist/shop/browser/index.csr.html', 'dist/shop/browser/index.html', 'dist/shop/server/server.mjs', 'dist/shop/prerendered-routes.json'], 'shop/browser'],
  ['dist/ folder of Angular 16', ['dist/shop/index.html', 'dist/shop/main.js', 'dist/shop/3rdpartylicenses.txt'], 'shop'],
  ['dist/<app>/ folder of Angular 17+', ['shop/browser/index.html', 'shop/3rdpartylicenses.txt'], 'browser'],
  ['the project with its dist/', ['dist/shop/browser/index.html', 'angular.json', 'src/main.ts'], 'dist/shop/browser'],
])('an Angular build zipped as the %s is served from its browser folder', async (_name, names, root) => {
  const plan = await planZip(makeZip(names.map((name) => ({ name, data: 'x' }))));
  try {
    expect(staticLayout(new Set(plan.files.map((f) => f.name)))).toEqual({ root });
  } finally {
    plan.close();
  }
});

test('two apps in one dist/ are still refused: which one to serve is not ours to guess', () => {
  expect(() => staticLayout(new Set(['dist/a/browser/index.html', 'dist/b/browser/index.html']))).toThrow(/No index.html found/);
});
