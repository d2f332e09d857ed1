// Instant redeploys: a deployment described by a manifest `{path: sha256}`. The platform answers
// which digests the project lacks, takes those files (checked against their digests), and on
// finish lays the deployment out as hard links to the project's content-addressed files and
// switches the site to it. State is in the database (site_manifests: the manifest; site_blobs:
// the digests a project has) and in the object store (sites/<project>/blobs/<sha256>, and
// sites/<project>/<deployment>/manifest.json, from which any instance lays the deployment out:
// SiteFiles.ensureLocal), so every instance can take any step and serve the result.
//
// Paths are judged like zip entries: relative, '/'-separated, no '.', '..' or empty segment, no
// leading '/', no NUL, backslash or control character, at most 1024 bytes, at most the zip limit's
// entry count (20,000), no path that is also another's folder. A deployment's bytes (the sum of
// its files) are charged to the owner's storage at finish, as a zip deploy charges its archive
// and extraction (413 past the plan). Blobs no deployment of the project lists are removed after
// pruning, once an hour old (so a manifest being uploaded is never robbed).
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../../platform/clock';
import { AppError, Errors } from '../../../platform/errors';
import { BoundedTasks } from '../../../platform/bounded-tasks';
import type { ProjectRow } from '../../projects';
import type { BuildLifecycle } from './build-lifecycle';
import type { DeployRepository } from './deploy.repository';
import type { HostingRepository } from '../hosting.repository';
import type { DeploymentRow } from '../hosting.tables';
import { fileAndFolder } from './path-tree';
import { RuntimeStartError, type Runtime, type SiteSpec } from '../runtime';
import type { SiteFiles } from './site-files';
import { deploymentKind, runtimeLayout, runtimeOf, staticLayout, type Layout } from './site-layout';
import { loadRules } from './site-rules';
import { DEFAULT_ZIP_LIMITS, MAX_PATH_BYTES, ZipRefusedError, type ZipLimits } from './zip-extract';

export { MAX_PATH_BYTES };
/** Uploaded blobs being stored at once by one request (receive()). */
const STORE_CONCURRENCY = 8;
const DIGEST = /^[0-9a-f]{64}$/;
// eslint-disable-next-line no-control-regex
const BAD_CHARS = /[\u0000-\u001f\u007f\\]/;

/** What going live asks of the hosting service (hosting.service.ts): the site's process, and the switch made known. */
export interface GoLive {
  specOf(project: Pick<ProjectRow, 'id'>, d: Pick<DeploymentRow, 'id' | 'type' | 'root' | 'entry' | 'runtime' | 'command'>, envVersion: number): SiteSpec;
  forgetLive(subdomain: string): Promise<void>;
}

export interface InstantDeployDeps {
  repo: HostingRepository;
  /** site_manifests and site_blobs (deploy.repository.ts). */
  manifests: DeployRepository;
  files: SiteFiles;
  builds: BuildLifecycle;
  runtime: Runtime;
  service: GoLive;
  clock: Clock;
  log: FastifyBaseLogger;
  zipLimits?: ZipLimits;
}

/** Why a manifest path is refused, or undefined when it is acceptable. */
export function pathProblem(p: string): string | undefined {
  if (p.length === 0) return 'an empty path';
  if (Buffer.byteLength(p) > MAX_PATH_BYTES) return `a path longer than ${MAX_PATH_BYTES} bytes`;
  if (BAD_CHARS.test(p)) return `an unsafe path ${JSON.stringify(p)} (NUL, control character or backslash)`;
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) return `an absolute path ${JSON.stringify(p)}`;
  if (p.split('/').some((s) => s === '' || s === '.' || s === '..')) return `an unsafe path ${JSON.stringify(p)}`;
  return undefined;
}

/** Refuses a manifest as a zip with the same entries would be refused. */
export function checkManifest(files: Record<string, string>, limits: ZipLimits): string[] {
  const paths = Object.keys(files);
  if (paths.length === 0) throw new ZipRefusedError('The manifest lists no files.');
  if (paths.length > limits.maxEntries) throw new ZipRefusedError(`The manifest has more than ${limits.maxEntries} files.`);
  for (const p of paths) {
    const problem = pathProblem(p);
    if (problem) throw new ZipRefusedError(`The manifest has ${problem}.`);
    if (typeof files[p] !== 'string' || !DIGEST.test(files[p])) throw new ZipRefusedError(`The digest of ${JSON.stringify(p)} is not a lower-case hex SHA-256.`);
  }
  const clash = fileAndFolder(paths);
  if (clash !== undefined) throw new ZipRefusedError(`The manifest lists ${JSON.stringify(clash)} both as a file and as a folder.`);
  return paths;
}

export class InstantDeploys {
  constructor(private readonly d: InstantDeployDeps) {}

  private get limits(): ZipLimits {
    return this.d.zipLimits ?? DEFAULT_ZIP_LIMITS;
  }

  private async missing(projectId: string, digests: string[]): Promise<string[]> {
    const unique = [...new Set(digests)];
    const have = await this.d.manifests.storedDigests(projectId, unique);
    return unique.filter((x) => !have.has(x));
  }

  /** A building manifest deployment of this project, with its manifest (404 otherwise). */
  private async waiting(project: ProjectRow, deploymentId: string): Promise<{ row: DeploymentRow; files: Record<string, string> }> {
    const row = await this.d.repo.findDeployment(project.id, deploymentId);
    const files = row && (await this.d.manifests.manifestOf(row.id));
    if (!row || !files) throw Errors.notFound('Deployment');
    if (row.status !== 'building') throw Errors.badRequest(`This deployment is no longer waiting for files (${row.status === 'failed' ? `it failed: ${row.error ?? 'unknown error'}` : 'it is already live'}).`);
    await this.d.repo.heartbeat(row.id);
    return { row, files };
  }

  async create(project: ProjectRow, type: string, files: Record<string, string>): Promise<{ deploymentId: string; missing: string[] }> {
    const kind = runtimeOf(type);
    const refused = kind && this.d.runtime.refusal(kind);
    if (refused) throw Errors.badRequest(refused);
    let paths: string[];
    try {
      paths = checkManifest(files, this.limits);
      // Static types are judged on names alone, as a zip is, before anything is uploaded.
      if (!kind) staticLayout(new Set(paths));
    } catch (err) {
      if (err instanceof ZipRefusedError) throw Errors.badRequest(err.message);
      throw err;
    }
    await this.d.builds.assertRoom(project);
    const row = await this.d.repo.createDeployment(project.id, type, this.d.builds.instanceId);
    await this.d.manifests.saveManifest(row.id, files);
    const missing = await this.missing(project.id, Object.values(files));
    await this.d.repo.finishBuild(row.id, { buildLog: `[${this.d.clock.now().toISOString()}] Manifest of ${paths.length} files for a ${type} site (deployment ${row.id}); ${missing.length} to upload\n` });
    return { deploymentId: row.id, missing };
  }

  /**
   * Takes the file parts of an upload: each part's file name is its digest, which must be one the
   * manifest lists and must match the bytes. Returns the digests stored, in the order sent.
   */
  async receive(project: ProjectRow, deploymentId: string, parts: AsyncIterable<{ type: string; filename?: string; file?: Readable }>, scratch: string): Promise<{ received: string[]; missing: string[] }> {
    // The deployment is looked up at the first file part, once the form's part headers before it
    // passed the contract's checks: a malformed form (a NUL in a file name) is a 400 before a 404,
    // as a body's schema check comes before a route's 404 everywhere else.
    let wanted: Set<string> | undefined;
    const lookUp = async () => {
      const { files } = await this.waiting(project, deploymentId);
      await this.d.builds.assertRoom(project);
      return new Set(Object.values(files));
    };
    const received: string[] = [];
    // A part's bytes are read (and checked) in order; storing them and recording the blob goes on
    // beside the next parts, a few at a time: one at a time, a 5,000-file first deploy waited
    // ~4 ms per file on the disk's round trips (bench/hosting.ts). A failed store fails the
    // request, and the request answers only once every store it started has ended.
    const stores = new BoundedTasks(STORE_CONCURRENCY);
    try {
      for await (const part of parts) {
        if (part.type !== 'file' || !part.file) continue;
        if (!wanted) {
          try {
            wanted = await lookUp();
          } catch (err) {
            part.file.resume(); // drain it so the request can end
            throw err;
          }
        }
        const declared = String(part.filename ?? '').toLowerCase();
        if (!DIGEST.test(declared)) {
          part.file.resume();
          throw Errors.badRequest(`Each file part's file name must be its SHA-256 in lower-case hex (got ${JSON.stringify(String(part.filename ?? '').slice(0, 80))}).`);
        }
        if (!wanted.has(declared)) {
          part.file.resume();
          throw Errors.badRequest(`${declared} is not a digest of this deployment's manifest.`);
        }
        const tmp = path.join(scratch, crypto.randomUUID());
        const hash = crypto.createHash('sha256');
        let size = 0;
        const max = this.limits.maxTotalBytes;
        await pipeline(
          part.file,
          async function* (src: AsyncIterable<Buffer>) {
            for await (const c of src) {
              size += c.length;
              if (size > max) throw Errors.badRequest(`A file is larger than ${max} bytes.`);
              hash.update(c);
              yield c;
            }
          },
          fs.createWriteStream(tmp, { flags: 'wx', mode: 0o644 }),
        );
        if ((part.file as Readable & { truncated?: boolean }).truncated) throw Errors.payloadTooLarge('The upload is larger than this server accepts.');
        const actual = hash.digest('hex');
        if (actual !== declared) {
          await fsp.rm(tmp, { force: true });
          throw Errors.badRequest(`The file sent as ${declared} does not match its digest (its SHA-256 is ${actual}).`);
        }
        await stores.start(() => this.storeBlob(project.id, declared, tmp, size));
        received.push(declared); // answered only once every store succeeded
      }
    } finally {
      await stores.settle();
    }
    stores.check();
    wanted ??= await lookUp();
    return { received, missing: await this.missing(project.id, [...wanted]) };
  }

  /** Keeps an uploaded file (checked against its digest) as the project's blob, and records it. */
  private async storeBlob(projectId: string, digest: string, file: string, size: number): Promise<void> {
    await this.d.files.putBlob(projectId, digest, file, size);
    await this.d.manifests.recordBlob(projectId, digest, size);
  }

  /** Lays the deployment out from the project's blobs and makes it live (the live site is untouched on failure). */
  async finish(project: ProjectRow, deploymentId: string): Promise<DeploymentRow> {
    const { row, files } = await this.waiting(project, deploymentId);
    const digests = Object.values(files);
    const missing = await this.missing(project.id, digests);
    if (missing.length) throw Errors.badRequest(`${missing.length} file${missing.length === 1 ? ' is' : 's are'} still missing (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}): upload them, then finish.`);
    const beat = this.d.builds.heartbeat(row.id);
    try {
      return await this.golive(project, row, files);
    } finally {
      beat.stop();
      // After the answer: the new deployment is live (or failed) either way; old ones and unused
      // files go in the background (bench/hosting.ts: ~100 ms off a 1-file redeploy's answer).
      void this.d.builds
        .prune(project)
        .then(() => this.collect(project.id))
        .catch((err) => this.d.log.warn({ err, projectId: project.id }, 'pruning old deployments or unused site files failed'));
    }
  }

  private async golive(project: ProjectRow, row: DeploymentRow, files: Record<string, string>): Promise<DeploymentRow> {
    const stamp = () => `[${this.d.clock.now().toISOString()}] `;
    let log = row.buildLog;
    let staged: string | undefined;
    let stored = false;
    const kind = deploymentKind(row);
    const paths = Object.keys(files);
    try {
      const bytes = await this.d.manifests.manifestBytes(project.id, row.id);
      await this.d.builds.reserve(project, row.id, bytes);
      const storing = this.d.files.storeManifest(project.id, row.id, files);
      storing.catch(() => undefined);
      stored = true;
      staged = await this.d.files.linkManifest(project.id, files);
      const names = new Set(paths);
      const layout: Layout = kind ? await runtimeLayout(kind, names, (n) => fsp.readFile(path.join(staged!, n), 'utf8')) : staticLayout(names);
      const rules = kind ? null : await loadRules(path.join(staged, layout.root));
      await storing;
      await this.d.files.publish(row.id, staged);
      staged = undefined;
      log += `${stamp()}Linked ${paths.length} files (${bytes} bytes); serving ${layout.root ? `${layout.root}/` : 'the top folder'}${rules ? `; rules: ${rules.redirects.length} redirects, ${rules.headers.length} header blocks` : ''}\n`;
      await this.d.repo.finishBuild(row.id, { sizeBytes: bytes, fileCount: paths.length, root: layout.root, entry: layout.entry ?? null, rules, buildLog: log });
      const deployment = { ...row, root: layout.root, entry: layout.entry ?? null };
      if (kind) await this.d.runtime.ensure(this.d.service.specOf(project, deployment, await this.d.repo.envVersionOf(project.id)));
      if (!(await this.d.repo.activate(project.id, row.id))) throw new Error('activation found no deployment');
      await this.d.service.forgetLive(project.subdomain);
      await this.d.runtime.retire(project.id, kind ? row.id : undefined);
      log += `${stamp()}Live\n`;
      await this.d.repo.finishBuild(row.id, { buildLog: log });
      return (await this.d.repo.findDeployment(project.id, row.id))!;
    } catch (err) {
      if (staged) await fsp.rm(staged, { recursive: true, force: true });
      if (stored) await this.d.files.removeDeployment(project.id, row.id).catch(() => undefined);
      const known = err instanceof ZipRefusedError || err instanceof RuntimeStartError || err instanceof AppError;
      const message = known ? (err as Error).message : 'The deployment failed because of an internal error.';
      if (!known) this.d.log.error({ err, deploymentId: row.id }, 'manifest deployment failed');
      await this.d.repo.fail(row.id, message, `${log}${stamp()}Failed: ${message}\n`, this.d.clock.now());
      if (err instanceof AppError) throw err;
      if (known) throw Errors.badRequest(message);
      throw err;
    }
  }

  /** Blobs of the project that no remaining deployment lists (an hour old at least). */
  async collect(projectId: string): Promise<string[]> {
    const digests = await this.d.manifests.collectBlobs(projectId);
    await this.d.files.removeBlobs(projectId, digests);
    return digests;
  }
}
