// Where a deployment's files live: the ObjectStore (sites/<projectId>/<deploymentId>/<path>) is
// the truth, so any API instance can serve any deployment; each instance keeps a local copy under
// DATA_DIR/hosting/cache/<deploymentId>, filled on first use. Deployments are immutable, so a
// cached copy never goes stale.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { ObjectStore } from '../storage/object-store';

export const siteKeyPrefix = (projectId: string, deploymentId?: string) =>
  deploymentId ? `sites/${projectId}/${deploymentId}/` : `sites/${projectId}/`;

export class SiteFiles {
  private readonly filling = new Map<string, Promise<string>>();
  readonly cacheRoot: string;
  readonly tmpRoot: string;

  constructor(private readonly store: ObjectStore, hostingDir: string) {
    this.cacheRoot = path.join(hostingDir, 'cache');
    this.tmpRoot = path.join(hostingDir, 'tmp');
    fs.mkdirSync(this.cacheRoot, { recursive: true });
    fs.mkdirSync(this.tmpRoot, { recursive: true });
  }

  cacheDir(deploymentId: string): string {
    return path.join(this.cacheRoot, deploymentId);
  }

  /** A fresh private folder for an upload or extraction in flight. */
  async tempDir(label: string): Promise<string> {
    const dir = path.join(this.tmpRoot, `${label}-${crypto.randomUUID()}`);
    await fsp.mkdir(dir, { recursive: true });
    return dir;
  }

  /** Uploads an extracted deployment to the store, then makes the staged folder this instance's cache. */
  async publish(projectId: string, deploymentId: string, staged: string, names: string[], concurrency = 16): Promise<void> {
    const prefix = siteKeyPrefix(projectId, deploymentId);
    let next = 0;
    const worker = async () => {
      while (next < names.length) {
        const name = names[next++];
        const file = path.join(staged, name);
        const { size } = await fsp.stat(file);
        await this.store.put(prefix + name, fs.createReadStream(file, { highWaterMark: 1 << 20 }), { size });
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, names.length) }, worker));
    await fsp.rename(staged, this.cacheDir(deploymentId)).catch(async (err: NodeJS.ErrnoException) => {
      // Another request filled the cache from the store meanwhile: keep that copy.
      if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
      await fsp.rm(staged, { recursive: true, force: true });
    });
  }

  /** The local folder of a deployment, downloaded from the store when this instance lacks it. */
  ensureLocal(projectId: string, deploymentId: string): Promise<string> {
    const dir = this.cacheDir(deploymentId);
    if (fs.existsSync(dir)) return Promise.resolve(dir);
    let p = this.filling.get(deploymentId);
    if (!p) {
      p = this.download(projectId, deploymentId, dir).finally(() => this.filling.delete(deploymentId));
      this.filling.set(deploymentId, p);
    }
    return p;
  }

  private async download(projectId: string, deploymentId: string, dir: string): Promise<string> {
    const staged = await this.tempDir(`fill-${deploymentId}`);
    try {
      const prefix = siteKeyPrefix(projectId, deploymentId);
      for await (const { key } of this.store.list(prefix)) {
        const target = path.join(staged, key.slice(prefix.length));
        if (!target.startsWith(staged + path.sep)) continue; // keys were validated on the way in
        await fsp.mkdir(path.dirname(target), { recursive: true });
        const { body } = await this.store.get(key);
        await pipeline(body, fs.createWriteStream(target, { flags: 'wx' }));
      }
      await fsp.rename(staged, dir).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
      });
      return dir;
    } finally {
      await fsp.rm(staged, { recursive: true, force: true });
    }
  }

  /** A failed deploy's partial upload. */
  async removeDeployment(projectId: string, deploymentId: string): Promise<void> {
    await this.store.deletePrefix(siteKeyPrefix(projectId, deploymentId));
    await fsp.rm(this.cacheDir(deploymentId), { recursive: true, force: true });
  }

  async removeProject(projectId: string, deploymentIds: string[]): Promise<void> {
    await this.store.deletePrefix(siteKeyPrefix(projectId));
    await Promise.all(deploymentIds.map((id) => fsp.rm(this.cacheDir(id), { recursive: true, force: true })));
  }
}
