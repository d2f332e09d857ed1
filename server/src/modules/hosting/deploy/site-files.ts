// Where a deployment's files live: the ObjectStore (sites/<projectId>/<deploymentId>/archive.zip)
// is the truth, so any API instance can serve any deployment; each instance keeps an extracted
// copy under DATA_DIR/hosting/cache/<deploymentId>, filled on first use. Deployments are
// immutable, so a cached copy never goes stale.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { ObjectNotFoundError, type ObjectStore } from '../../../platform/object-store/object-store';
import { Readable } from 'node:stream';
import { extractTo, IN_MEMORY_MAX, planZip, type ZipLimits, type ZipSource } from './zip-extract';

const ARCHIVE = 'archive.zip';
/** A manifest deployment (instant redeploys) has this instead of an archive: path → sha256. */
const MANIFEST = 'manifest.json';

/** Content-addressed files a project's deployments share: sites/<project>/blobs/<sha256>. */
export const blobKey = (projectId: string, digest: string) => `sites/${projectId}/blobs/${digest}`;

export const siteKeyPrefix = (projectId: string, deploymentId?: string) =>
  deploymentId ? `sites/${projectId}/${deploymentId}/` : `sites/${projectId}/`;

export class SiteFiles {
  private readonly filling = new Map<string, Promise<string>>();
  private readonly fetchingBlobs = new Map<string, Promise<string>>();
  readonly cacheRoot: string;
  readonly tmpRoot: string;
  /** This instance's copies of the stored blobs (blobs/<project>/<sha256>), hard-linked into deployments. */
  readonly blobRoot: string;

  /**
   * archiveLimits: how a stored archive is judged when an instance extracts it. Uploads were judged
   * with the deploy limits before they were stored; a build's output (builds from source, with its
   * node_modules or virtualenv) may be bigger, up to the build's disk limit.
   */
  constructor(private readonly store: ObjectStore, hostingDir: string, private readonly archiveLimits?: ZipLimits) {
    this.cacheRoot = path.join(hostingDir, 'cache');
    this.tmpRoot = path.join(hostingDir, 'tmp');
    this.blobRoot = path.join(hostingDir, 'blobs');
    fs.mkdirSync(this.blobRoot, { recursive: true });
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
      let got;
      try {
        got = await this.store.get(siteKeyPrefix(projectId, deploymentId) + ARCHIVE);
      } catch (err) {
        if (!(err instanceof ObjectNotFoundError)) throw err;
        // A manifest deployment: its files are the project's blobs, linked as the deploy did.
        const { body: m } = await this.store.get(siteKeyPrefix(projectId, deploymentId) + MANIFEST);
        const chunks: Buffer[] = [];
        for await (const c of m as AsyncIterable<Buffer>) chunks.push(c);
        const staged = await this.linkManifest(projectId, JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>);
        await this.adopt(staged, dir);
        return dir;
      }
      const staged = path.join(work, 'files');
      await this.extract(got.body, zipPath, staged);
      await this.adopt(staged, dir);
      return dir;
    } finally {
      await fsp.rm(work, { recursive: true, force: true });
    }
  }

  /**
   * The same extractor and checks as a deploy (CRC-32 included): a damaged archive throws and
   * nothing half-written is ever used (the caller's folder goes with its temp folder).
   */
  private async extract(body: NodeJS.ReadableStream, zipPath: string, into: string): Promise<void> {
    await pipeline(body, fs.createWriteStream(zipPath, { flags: 'wx' }));
    const source: ZipSource = (await fsp.stat(zipPath)).size <= IN_MEMORY_MAX ? await fsp.readFile(zipPath) : zipPath;
    const plan = await planZip(source, this.archiveLimits);
    try {
      await extractTo(plan, source, into);
    } finally {
      plan.close();
    }
  }

  /**
   * A deployment's stored archive extracted into a new private folder (the source of a build
   * queued by another instance); the caller owns the folder and removes it.
   */
  async extractStored(projectId: string, deploymentId: string): Promise<string> {
    const work = await this.tempDir(`fetch-${deploymentId}`);
    const into = path.join(this.tmpRoot, `source-${crypto.randomUUID()}`);
    try {
      const { body } = await this.store.get(siteKeyPrefix(projectId, deploymentId) + ARCHIVE);
      await this.extract(body, path.join(work, ARCHIVE), into);
      return into;
    } catch (err) {
      await fsp.rm(into, { recursive: true, force: true });
      throw err;
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

  // ---- instant redeploys: content-addressed files ---------------------------------------------

  /** Where this instance keeps a blob (which may not be there yet). */
  blobPath(projectId: string, digest: string): string {
    return path.join(this.blobRoot, projectId, digest);
  }

  /** Stores an uploaded file (checked against its digest by the caller) and keeps it as the local copy. */
  async putBlob(projectId: string, digest: string, file: string, size: number): Promise<void> {
    await this.store.put(blobKey(projectId, digest), fs.createReadStream(file, { highWaterMark: 1 << 20 }), { size, contentType: 'application/octet-stream' });
    const local = this.blobPath(projectId, digest);
    await fsp.mkdir(path.dirname(local), { recursive: true });
    await fsp.rename(file, local);
  }

  /** The local copy of a blob, fetched from the object store when this instance lacks it. */
  localBlob(projectId: string, digest: string): Promise<string> {
    const local = this.blobPath(projectId, digest);
    if (fs.existsSync(local)) return Promise.resolve(local);
    const key = `${projectId}/${digest}`;
    let p = this.fetchingBlobs.get(key);
    if (!p) {
      p = (async () => {
        await fsp.mkdir(path.dirname(local), { recursive: true });
        const tmp = path.join(this.tmpRoot, `blob-${crypto.randomUUID()}`);
        try {
          const { body } = await this.store.get(blobKey(projectId, digest));
          const hash = crypto.createHash('sha256');
          await pipeline(body, async function* (src: AsyncIterable<Buffer>) {
            for await (const c of src) {
              hash.update(c);
              yield c;
            }
          }, fs.createWriteStream(tmp, { flags: 'wx', mode: 0o644 }));
          // The store is trusted less than the digest: a damaged copy is never served.
          if (hash.digest('hex') !== digest) throw new Error(`stored blob ${digest} of project ${projectId} does not match its digest`);
          await fsp.rename(tmp, local);
          return local;
        } finally {
          await fsp.rm(tmp, { force: true });
        }
      })().finally(() => this.fetchingBlobs.delete(key));
      this.fetchingBlobs.set(key, p);
    }
    return p;
  }

  /** A staged folder with each manifest path hard-linked to its blob (nothing copied). */
  async linkManifest(projectId: string, files: Record<string, string>): Promise<string> {
    const staged = await this.tempDir('link');
    const entries = Object.entries(files);
    const dirs = new Set<string>();
    for (const [rel] of entries) {
      const d = path.posix.dirname(rel);
      if (d !== '.') dirs.add(d);
    }
    for (const d of [...dirs].sort()) await fsp.mkdir(path.join(staged, d), { recursive: true });
    const root = path.resolve(staged);
    let next = 0;
    const worker = async () => {
      while (next < entries.length) {
        const [rel, digest] = entries[next++];
        const target = path.resolve(root, rel);
        if (!target.startsWith(root + path.sep)) throw new Error(`unsafe manifest path ${JSON.stringify(rel)}`);
        const blob = await this.localBlob(projectId, digest);
        await fsp.link(blob, target).catch(async (err: NodeJS.ErrnoException) => {
          if (err.code !== 'EXDEV' && err.code !== 'EMLINK' && err.code !== 'EPERM') throw err;
          await fsp.copyFile(blob, target, fs.constants.COPYFILE_EXCL);
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(16, entries.length) }, worker));
    return staged;
  }

  /** Records a manifest deployment's file list where every instance finds it (ensureLocal). */
  async storeManifest(projectId: string, deploymentId: string, files: Record<string, string>): Promise<void> {
    const body = Buffer.from(JSON.stringify(files));
    await this.store.put(siteKeyPrefix(projectId, deploymentId) + MANIFEST, Readable.from([body]), { size: body.length, contentType: 'application/json' });
  }

  /** Blobs no deployment refers to any more. */
  async removeBlobs(projectId: string, digests: string[]): Promise<void> {
    for (const d of digests) {
      await this.store.delete(blobKey(projectId, d)).catch((err) => {
        if (!(err instanceof ObjectNotFoundError)) throw err;
      });
      await fsp.rm(this.blobPath(projectId, d), { force: true });
    }
  }

  async removeProject(projectId: string, deploymentIds: string[]): Promise<void> {
    await this.store.deletePrefix(siteKeyPrefix(projectId));
    await fsp.rm(path.join(this.blobRoot, projectId), { recursive: true, force: true });
    await Promise.all(deploymentIds.map((id) => fsp.rm(this.cacheDir(id), { recursive: true, force: true })));
  }
}
