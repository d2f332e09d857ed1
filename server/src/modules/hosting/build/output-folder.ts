// The folders a build leaves, judged after its sandbox is gone: reached through real folders
// only (a link the upload or the build made is never followed by the platform, which is root),
// and a static output holding regular files only.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { BuildFailedError } from './build-runner';

/** A folder inside base, reached through real folders only (no link made by the upload or the build). */
export async function folderIn(base: string, rel: string, what: string): Promise<string> {
  let dir = base;
  for (const part of rel.split('/').filter(Boolean)) {
    if (part === '..' || part === '.') throw new BuildFailedError(`The ${what} must stay inside the upload.`);
    dir = path.join(dir, part);
    const st = await fsp.lstat(dir).catch(() => undefined);
    if (!st?.isDirectory()) throw new BuildFailedError(`The ${what} "${rel}" is not a folder${st?.isSymbolicLink() ? ' (it is a symbolic link)' : ''}.`);
  }
  return dir;
}

/** The folder to serve: the plan's, else the one build folder holding index.html; links removed. */
export async function staticOutput(src: string, dir?: string): Promise<string> {
  const candidates = dir ? [dir] : ['dist', 'build', 'out'];
  let found: string | undefined;
  for (const c of candidates) {
    const abs = await folderIn(src, c, 'output directory').catch(() => undefined);
    if (abs) {
      found = abs;
      break;
    }
  }
  // Angular's folder depends on its version and project name: the one dist/<app>[/browser] with index.html.
  if (!found || !fs.existsSync(path.join(found, 'index.html'))) {
    const dist = await folderIn(src, 'dist', 'output directory').catch(() => undefined);
    if (dist && (!dir || dir.startsWith('dist/'))) {
      const nested: string[] = [];
      for (const e of await fsp.readdir(dist, { withFileTypes: true })) {
        if (!e.isDirectory()) continue;
        for (const sub of ['browser', '']) {
          const abs = path.join(dist, e.name, sub);
          if ((await fsp.lstat(path.join(abs, 'index.html')).catch(() => undefined))?.isFile()) {
            nested.push(abs);
            break;
          }
        }
      }
      if (nested.length === 1) found = nested[0];
    }
  }
  if (!found) throw new BuildFailedError(`The build finished but its output folder ${dir ? `"${dir}"` : '(dist/, build/ or out/)'} does not exist. Set the output directory in the site's build settings.`);
  // A deployment holds regular files: links the build left in its output are dropped, never followed.
  await dropLinks(found);
  return found;
}

/** Removes every entry that is not a folder or a regular file (links are removed, never followed). */
export async function dropLinks(dir: string): Promise<void> {
  for (const e of await fsp.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) await dropLinks(full);
    else if (!e.isFile()) await fsp.rm(full, { force: true });
  }
}
