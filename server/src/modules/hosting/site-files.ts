// Where a deployment's files live: the ObjectStore (sites/<projectId>/<deploymentId>/archive.zip)
// is the truth, so any API instance can serve any deployment; each instance keeps an extracted
// copy under DATA_DIR/hosting/cache/<deploymentId>, filled on first use. Deployments are
// immutable, so a cached copy never goes stale.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { ObjectStore } from '../storage/object-store';
import { Readable } from 'node:stream';
import { extractTo, IN_MEMORY_MAX, planZip, type ZipSource } from './zip-extract';

const ARCHIVE = 'archive.zip';

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

  /**
   * Stores the deployment's archive (one object: a 5,000-file site costs one PUT, not 5,000).
   * Deploys run it while the files are extracted; a failed deploy removes it (removeDeployment).
   * Other instances extract the same archive with the same checks, so they serve exactly these files.
   */
  async storeArchive(projectId: string, deploymentId: string, zip: ZipSource): Promise<void> {
    const key = siteKeyPrefix(projectId, deploymentId) + ARCHIVE;
    if (Buffer.isBuffer(zip)) {
      await this.store.put(key, Readable.from([zip]), { size: zip.length, contentType: 'application/zip' });
      return;
    }
    const { size } = await fsp.stat(zip);
    await this.store.put(key, fs.createReadStream(zip, { highWaterMark: 1 << 20 }), { size, contentType: 'application/zip' });
  }

  /** Makes a staged extraction (of a stored archive) this instance's cache of the deployment. */
  publish(deploymentId: string, staged: string): Promise<void> {
    return this.adopt(staged, this.cacheDir(deploymentId));
  }

  /** The local folder of a deployment, extracted from the stored archive when this instance lacks it. */
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
    const work = await this.tempDir(`fill-${deploymentId}`);
    try {
      const zipPath = path.join(work, ARCHIVE);
      const { body } = await this.store.get(siteKeyPrefix(projectId, deploymentId) + ARCHIVE);
      await pipeline(body, fs.createWriteStream(zipPath, { flags: 'wx' }));
      // The same extractor and checks as a deploy (CRC-32 included): a damaged archive throws and
      // the staged folder goes with `work`, so nothing half-written is ever served.
      const source: ZipSource = (await fsp.stat(zipPath)).size <= IN_MEMORY_MAX ? await fsp.readFile(zipPath) : zipPath;
      const plan = await planZip(source);
      const staged = path.join(work, 'files');
      try {
        await extractTo(plan, source, staged);
      } finally {
        plan.close();
      }
      await this.adopt(staged, dir);
      return dir;
    } finally {
      await fsp.rm(work, { recursive: true, force: true });
    }
  }

  private async adopt(staged: string, dir: string): Promise<void> {
    await fsp.mkdir(staged, { recursive: true }); // an archive of nothing still gets a folder
    await fsp.rename(staged, dir).catch(async (err: NodeJS.ErrnoException) => {
      // Another request filled the cache meanwhile: keep that copy.
      if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
      await fsp.rm(staged, { recursive: true, force: true });
    });
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
