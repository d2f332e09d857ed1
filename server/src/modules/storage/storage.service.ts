// Stored files: streaming uploads under a per-file limit and the owner's plan quota, pages of a
// project's files, deletion, and the lookups behind downloads. Bytes go through the ObjectStore,
// rows through the repository; a row is written only after its bytes are complete, and bytes
// whose row could not be written are removed, so the two never disagree for long.
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError, Errors } from '../../platform/errors';
import type { Clock } from '../../platform/clock';
import type { LookupCache } from '../../platform/lookup-cache';
import { planLimits } from '../plans';
import type { ProjectRow } from '../projects';
import { ObjectTooLargeError, type ObjectStore } from '../../platform/object-store/object-store';
import type { StorageRepository } from './storage.repository';
import type { StorageObjectRow } from './storage.tables';
import { StorageQuota, type QuotaView, type StorageNotice } from './quota';
import { displayName, objectType } from './file-meta';
import { humanBytes } from '../../platform/human-bytes';
import { folderProblem } from './access-rules';

export const PAGE_SIZE = 100;

/** One part of a multipart form, as @fastify/multipart yields it. */
export type FormPart =
  | { type: 'field'; fieldname: string; value: unknown }
  | { type: 'file'; fieldname: string; filename: string; mimetype: string; file: Readable & { truncated?: boolean } };

export interface StorageServiceDeps {
  repo: StorageRepository;
  store: ObjectStore;
  maxUploadBytes: number;
  /** Where share links point: PUBLIC_URL, the bucket domain. */
  bucketDomain: string;
  clock: Clock;
  /** Storage use after a charge: quota_passed at 80 % and 100 % (plans/plan-limits.ts). */
  notice?: StorageNotice;
  /**
   * Where listings keep pages of files and the owner's usage between changes: dropped on every
   * instance by the notices of migrations/0019, and a write waits (barrier) until every instance
   * heard it. Without it every listing reads the database.
   */
  lookups?: Pick<LookupCache, 'get' | 'barrier'>;
  /** A page of every file in a folder and below (storage-access.repository.ts). */
  folderPage?: (projectId: string, folder: string, limit: number, offset: number) => Promise<{ rows: StorageObjectRow[]; total: number }>;
}

/** A page of a project's files as listings answer it. */
interface FilesPage {
  files: ReturnType<StorageService['developerView']>[];
  total: number;
}

export interface UploadOptions {
  /** The end user who uploads (the owner rule), if any. */
  ownerId?: string | null;
  /** Throws when the caller may not upload into the folder (the access rules), before any byte is stored. */
  authorize?: (folder: string) => void | Promise<void>;
}

/** A page of the files a rule-bound caller may read, in a folder and below. */
export type ReadablePage = (folder: string, limit: number, offset: number) => Promise<{ rows: StorageObjectRow[]; total: number }>;

export const objectKey = (projectId: string, objectId: string) => `projects/${projectId}/objects/${objectId}`;
export const projectPrefix = (projectId: string) => `projects/${projectId}/`;
/** A file's key (objectKey), and nothing else under projects/. */
const FILE_KEY = /^projects\/[^/]+\/objects\/[^/]+$/;
/** Bytes without a row younger than this are never swept: an upload may be about to insert it. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;

export class StorageService {
  readonly quotas: StorageQuota;

  constructor(private readonly d: StorageServiceDeps) {
    this.quotas = new StorageQuota(d.repo, d.notice, d.lookups);
  }

  private async noticeFigures(ownerId: string): Promise<[string, number]> {
    const usage = await this.d.repo.usage(ownerId);
    return [usage.plan, usage.usedBytes];
  }

  /** Storage used by the owner across all projects (files and sites), and the plan's allowance (undefined: unlimited). */
  quota(ownerId: string): Promise<QuotaView> {
    return this.quotas.usage(ownerId);
  }

  /**
   * Reads the form and streams its one `file` part into the store. `project_id`, when sent (before
   * or after the file), must name `project`. Whatever fails, nothing is left: no bytes, no row.
   */
  async upload(project: ProjectRow, form: AsyncIterable<FormPart>, opts: UploadOptions = {}): Promise<StorageObjectRow> {
    const usage = await this.quota(project.ownerId);
    const { usedBytes, quotaBytes } = usage;
    const quotaError = () => this.quotas.exceeded(usage);
    const remaining = quotaBytes === undefined ? Infinity : quotaBytes - usedBytes;
    if (remaining <= 0) throw quotaError();

    const objectId = crypto.randomUUID();
    const key = objectKey(project.id, objectId);
    let stored: { size: number; etag: string; name: string; type: string } | undefined;
    let folder = '';
    try {
      for await (const part of form) {
        if (part.type === 'field') {
          if (part.fieldname === 'project_id' && String(part.value) !== project.id) {
            throw Errors.validation('body/project_id must match the project in the path');
          }
          if (part.fieldname === 'folder') {
            // The rules are checked before any byte is stored: the folder must come first.
            if (stored) throw Errors.validation('body/folder must come before the file in the form');
            folder = String(part.value);
            const problem = folderProblem(folder);
            if (problem) throw Errors.validation(`body/folder ${problem}`);
          }
          continue;
        }
        if (part.fieldname !== 'file') {
          part.file.destroy();
          throw Errors.validation(`body/file is required (the file was sent as "${part.fieldname}")`);
        }
        if (stored) {
          part.file.destroy();
          throw Errors.validation('body must have exactly one file');
        }
        if (opts.authorize) {
          try {
            await opts.authorize(folder);
          } catch (err) {
            part.file.destroy();
            throw err;
          }
        }
        stored = await this.putPart(key, part, remaining, quotaError);
      }
      if (!stored) throw Errors.validation("body must have required property 'file'");
      const now = this.d.clock.now();
      const row = await this.d.repo.insertWithinQuota(
        project.ownerId,
        {
          objectId, projectId: project.id, storageKey: key, name: stored.name, objectType: stored.type,
          // Private until the developer shares it (sharing.ts).
          objectSize: stored.size, etag: stored.etag, shareSegment: null,
          folder, ownerId: opts.ownerId ?? null, createdAt: now, updatedAt: now,
        },
        (plan) => planLimits(plan).storageBytes,
      );
      // Concurrent uploads of the same account took the room meanwhile.
      if (!row) throw quotaError();
      if (this.d.notice) await this.d.notice(project.ownerId, ...(await this.noticeFigures(project.ownerId)));
      return row;
    } catch (err) {
      if (stored) await this.d.store.delete(key);
      throw err;
    }
  }

  private async putPart(key: string, part: Extract<FormPart, { type: 'file' }>, remaining: number, quotaError: () => AppError) {
    const max = this.d.maxUploadBytes;
    const limit = max < 1024 ? humanBytes(max) : `${humanBytes(max)} (${max} bytes)`;
    const tooLarge = () => Errors.payloadTooLarge(`File is larger than the upload limit of ${limit}`);
    // The multipart parser stops at the same limit but only marks the stream truncated (it ends
    // normally); failing the stream at that moment keeps a cut-off file from ever being stored.
    let overLimit = false;
    part.file.once('limit', () => {
      overLimit = true;
      part.file.destroy(new ObjectTooLargeError(max));
    });
    const name = displayName(part.filename);
    const type = objectType(part.mimetype, name);
    try {
      const put = await this.d.store.put(key, part.file, { contentType: type, maxBytes: Math.min(max, remaining) });
      if (part.file.truncated) {
        await this.d.store.delete(key);
        throw tooLarge();
      }
      return { ...put, name, type };
    } catch (err) {
      if (err instanceof ObjectTooLargeError) throw overLimit || err.maxBytes >= max ? tooLarge() : quotaError();
      throw err;
    }
  }

  private async page(projectId: string, page: number): Promise<FilesPage> {
    const read = async (): Promise<FilesPage> => {
      const { rows, total } = await this.d.repo.page(projectId, PAGE_SIZE, (page - 1) * PAGE_SIZE);
      return { files: Object.freeze(rows.map((r) => Object.freeze(this.developerView(r)))) as FilesPage['files'], total };
    };
    if (!this.d.lookups) return read();
    return (await this.d.lookups.get(`files:${projectId}:${page}`, read, () => [`files:${projectId}`], (p) => 1 + p.files.length))!;
  }

  /**
   * A page of files: every file of the project (the console, the secret key), shared ones with their
   * share URL; or with `readable` the page the access rules let a rule-bound caller read, without
   * the account's storage figures and without any URL.
   */
  async list(project: ProjectRow, page = 1, opts: { folder?: string; readable?: ReadablePage } = {}) {
    const offset = (page - 1) * PAGE_SIZE;
    const folder = opts.folder ?? '';
    if (opts.readable) {
      const { rows, total } = await opts.readable(folder, PAGE_SIZE, offset);
      return { files: rows.map((r) => this.appView(r)), total, page, page_size: PAGE_SIZE, next_page: page * PAGE_SIZE < total ? page + 1 : null };
    }
    // The whole project's pages are kept between changes (page()); a folder's are read each time.
    const pageOf = async (): Promise<FilesPage> => {
      if (folder === '') return this.page(project.id, page);
      const { rows, total } = await this.d.folderPage!(project.id, folder, PAGE_SIZE, offset);
      return { files: rows.map((r) => this.developerView(r)), total };
    };
    const [{ files, total }, { usedBytes, filesBytes, hostingBytes, quotaBytes }] = await Promise.all([pageOf(), this.quota(project.ownerId)]);
    return {
      files,
      total,
      page,
      page_size: PAGE_SIZE,
      next_page: page * PAGE_SIZE < total ? page + 1 : null,
      usage_bytes: usedBytes,
      files_bytes: filesBytes,
      hosting_bytes: hostingBytes,
      ...(quotaBytes === undefined ? {} : { quota_bytes: quotaBytes }),
    };
  }

  /** Deletes those of `objectIds` that are the project's; returns how many. */
  async delete(project: ProjectRow, objectIds: string[]): Promise<number> {
    // Rows first: if removing bytes fails, a file is gone from listings and links (orphan bytes
    // are only wasted space), never listed without its bytes.
    const rows = await this.d.repo.deleteOwned(project.id, objectIds);
    for (const row of rows) await this.d.store.delete(row.storageKey);
    return rows.length;
  }

  /**
   * Removes files' bytes that no row points to and that were written over `graceMs` ago: what a
   * process killed between storing an upload and inserting its row left (or between deleting rows
   * and their bytes, or a project's rows and its folder). An upload's bytes become visible only
   * when complete, milliseconds before its row, so the grace only has to outlast that moment on
   * any instance; objects whose store gives no time are left alone. Returns how many it removed.
   */
  async sweepOrphans(graceMs = ORPHAN_GRACE_MS): Promise<number> {
    const before = this.d.clock.now().getTime() - graceMs;
    let removed = 0;
    let batch: string[] = [];
    const flush = async () => {
      const kept = await this.d.repo.existingKeys(batch);
      for (const key of batch) {
        if (kept.has(key)) continue;
        await this.d.store.delete(key);
        removed++;
      }
      batch = [];
    };
    for await (const o of this.d.store.list('projects/')) {
      if (!FILE_KEY.test(o.key) || !o.lastModified || o.lastModified.getTime() > before) continue;
      batch.push(o.key);
      if (batch.length >= 500) await flush();
    }
    await flush();
    return removed;
  }

  /** Removes every byte of a project; its rows go with the project (ON DELETE CASCADE). */
  /** The project's own file, or 404 (another project's file is indistinguishable from none). */
  async owned(project: ProjectRow, objectId: string): Promise<StorageObjectRow> {
    const row = await this.d.repo.find(objectId);
    if (!row || row.projectId !== project.id) throw Errors.notFound('File');
    return row;
  }

  findFile(objectId: string): Promise<StorageObjectRow | undefined> {
    return this.d.repo.find(objectId);
  }

  /** Those of `objectIds` that are the project's files. */
  findFiles(projectId: string, objectIds: string[]): Promise<StorageObjectRow[]> {
    return this.d.repo.findMany(projectId, objectIds);
  }

  get store(): ObjectStore {
    return this.d.store;
  }

  /** A file as apps see it (the publishable key, an end user): no URL that works without a key. */
  appView(r: StorageObjectRow) {
    return {
      object_id: r.objectId,
      object_type: r.objectType,
      object_size: r.objectSize,
      metadata: JSON.stringify({ name: r.name }),
      folder: r.folder,
      owner_id: r.ownerId,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    };
  }

  /**
   * A file as the developer sees it (the console, the secret key alone): with its share URL while
   * shared, null while private. The spec's shape: the segment is the URL's 6th "/"-separated part.
   */
  developerView(r: StorageObjectRow) {
    return { ...this.appView(r), path: r.shareSegment === null ? null : `${this.d.bucketDomain}/s3/object-storage/${r.shareSegment}/${r.objectId}` };
  }
}

