// A built site's start, resolved at build time to what the runtime runs without npm and without
// what a deployment's archive drops (symbolic links such as node_modules/.bin, executable bits):
// `node X`, a package's bin as node + its real JS file, Flask through the host's python3 with the
// virtualenv's packages first, else sh -c.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { SITE_PORT } from '../runtime';
import { BuildFailedError } from './build-runner';
import { folderIn } from './output-folder';
import { parseBoundedJson } from '../../../platform/json-limits';

/** node_modules/.bin/<name> to the JS file it links to, if it stays inside node_modules. */
async function binScript(src: string, name: string): Promise<string | undefined> {
  if (!/^[\w@.-]+$/.test(name)) return undefined;
  const link = path.join(src, 'node_modules', '.bin', name);
  const st = await fsp.lstat(link).catch(() => undefined);
  if (!st) return undefined;
  const target = st.isSymbolicLink() ? path.resolve(path.dirname(link), await fsp.readlink(link)) : link;
  const modules = path.join(src, 'node_modules') + path.sep;
  if (!target.startsWith(modules)) return undefined;
  // Every folder on the way must be real too: the file the runtime runs is the one checked here.
  const rel = path.relative(src, target);
  const parent = await folderIn(src, path.dirname(rel), 'start command').catch(() => undefined);
  if (!parent || !(await fsp.lstat(target).catch(() => undefined))?.isFile()) return undefined;
  const head = (await fsp.readFile(target, 'utf8')).slice(0, 200);
  if (!/^#!.*\bnode\b/.test(head) && !/\.[cm]?js$/.test(target)) return undefined;
  return rel.split(path.sep).join('/');
}

/** A start command as the runtime runs it: `node X`, a package's bin through node, or sh -c. */
export async function startCommand(src: string, start: string, read: (n: string) => Promise<string>, depth = 0): Promise<{ entry: string; command: string[] }> {
  const trimmed = start.trim();
  // npm at runtime is never run: `npm start` is the script it would run.
  if (/^(npm (run )?start|yarn start|pnpm start)$/.test(trimmed) && depth === 0) {
    // detect.ts parsed it within the limits before any start command is worked out.
    const scripts = (parseBoundedJson(await read('package.json').catch(() => '{}'), 'package.json') as { scripts?: Record<string, string> }).scripts;
    if (typeof scripts?.start === 'string') return startCommand(src, scripts.start, read, depth + 1);
  }
  const simple = /^[\w@./:=,+-]+(\s+[\w@./:=,+-]+)*$/.test(trimmed);
  const words = trimmed.split(/\s+/);
  if (simple && words[0] === 'node') {
    const script = words.slice(1).find((w) => !w.startsWith('-'));
    if (script) return { entry: path.posix.normalize(script.replace(/^\.\//, '')), command: [process.execPath, ...words.slice(1)] };
  }
  if (simple) {
    const bin = await binScript(src, words[0]);
    if (bin) return { entry: bin, command: [process.execPath, `/app/${bin}`, ...words.slice(1)] };
  }
  if (/^(npm|npx|yarn|pnpm)\b/.test(trimmed)) {
    throw new BuildFailedError(`The start command "${trimmed}" runs a package manager, which a site never does once built: start it with node (for example "node server.js") or give package.json a "start" script that does.`);
  }
  return { entry: 'package.json', command: ['/bin/sh', '-c', `PATH=/app/node_modules/.bin:$PATH; ${trimmed}`] };
}

/** .venv/lib/python3.X/site-packages, if the build made a virtualenv. */
export async function venvSitePackages(src: string): Promise<string | undefined> {
  const lib = await folderIn(src, '.venv/lib', 'virtualenv').catch(() => undefined);
  if (!lib) return undefined;
  const version = (await fsp.readdir(lib)).find((n) => /^python3\.\d+$/.test(n));
  if (!version) return undefined;
  const rel = `.venv/lib/${version}/site-packages`;
  return (await folderIn(src, rel, 'virtualenv').catch(() => undefined)) ? rel : undefined;
}

/**
 * Flask with the virtualenv's packages first, run by the host's python3: a venv's own python
 * needs its executable bit and a deployment's archive keeps none (files come back 0644).
 */
export function flaskCommand(entry: string, sitePackages: string): string[] {
  const app = entry.replace(/\.py$/, '');
  const boot = [
    'import site, sys',
    'before = list(sys.path)',
    `site.addsitedir(${JSON.stringify(sitePackages)})`,
    'sys.path[:] = [p for p in sys.path if p not in before] + before',
    'from flask.cli import main',
    `sys.argv = ['flask', '--app', ${JSON.stringify(app)}, 'run', '--host', '127.0.0.1', '--port', '${SITE_PORT}', '--no-reload']`,
    'main()',
  ].join('\n');
  return ['/usr/bin/python3', '-u', '-c', boot];
}
