// A project's installed dependencies (node_modules, .venv, vendor), kept between builds: the key
// is the sha256 of the lockfiles, the framework and the install command, so an unchanged lockfile
// restores the folder and skips the install. Copies are made by root with cp -a, which copies
// symbolic links as links and never follows them (the folder was written by tenant code); only a
// real folder is saved. Each project keeps its newest KEEP entries.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { BuildPlan } from './detect';

const run = promisify(execFile);
const KEEP = 2;

export class BuildCache {
  constructor(
    /** The project's cache folder (root-owned, never mounted into a sandbox). */
    private readonly dir: string,
    private readonly keep = KEEP,
  ) {}

  /** The key of a plan's install, from the lockfiles as they are in the workspace. */
  static async keyOf(workspace: string, plan: BuildPlan): Promise<string | undefined> {
    if (!plan.install) return undefined;
    const hash = crypto.createHash('sha256').update(`${plan.framework}\0${plan.install.command}\0${plan.install.cacheDir}\0`);
    for (const name of plan.install.lockfiles) {
      const file = path.join(workspace, name);
      const st = await fsp.lstat(file).catch(() => undefined);
      if (!st?.isFile()) return undefined; // nothing to key on: always install
      hash.update(`${name}\0`).update(await fsp.readFile(file)).update('\0');
    }
    return hash.digest('hex');
  }

  /** Copies the saved folder into the workspace; false on a miss. */
  async restore(key: string, workspace: string, depsDir: string): Promise<boolean> {
    const saved = path.join(this.dir, key, depsDir);
    if (!(await fsp.lstat(saved).catch(() => undefined))?.isDirectory()) return false;
    const target = path.join(workspace, depsDir);
    await fsp.rm(target, { recursive: true, force: true });
    await run('cp', ['-a', '--no-dereference', saved, target]);
    const now = new Date();
    await fsp.utimes(path.join(this.dir, key), now, now); // most recently used
    return true;
  }

  /** Saves the workspace's folder under key (atomically: a half copy is never a hit). */
  async save(key: string, workspace: string, depsDir: string): Promise<boolean> {
    const source = path.join(workspace, depsDir);
    if (!(await fsp.lstat(source).catch(() => undefined))?.isDirectory()) return false;
    await fsp.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const staging = path.join(this.dir, `.tmp-${key}-${process.pid}-${Date.now()}`);
    await fsp.mkdir(staging, { mode: 0o700 });
    try {
      await run('cp', ['-a', '--no-dereference', source, path.join(staging, depsDir)]);
      await fsp.rm(path.join(this.dir, key), { recursive: true, force: true });
      await fsp.rename(staging, path.join(this.dir, key));
    } catch (err) {
      await fsp.rm(staging, { recursive: true, force: true });
      throw err;
    }
    await this.prune(key);
    return true;
  }

  /** Keeps the newest entries (by last use), never the one just saved. */
  private async prune(current: string): Promise<void> {
    const entries = [];
    for (const name of await fsp.readdir(this.dir)) {
      if (name.startsWith('.tmp-')) continue;
      const st = await fsp.stat(path.join(this.dir, name)).catch(() => undefined);
      if (st) entries.push({ name, at: name === current ? Infinity : st.mtimeMs });
    }
    entries.sort((a, b) => b.at - a.at);
    for (const e of entries.slice(this.keep)) await fsp.rm(path.join(this.dir, e.name), { recursive: true, force: true });
  }
}
