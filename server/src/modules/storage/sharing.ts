// The two ways a stored file becomes readable without a key, both the developer's decision and
// both read from the database at every request (so ending them takes effect at once, on every
// instance): a share link (the spec's {bucket domain}/s3/object-storage/{segment}/{object_id},
// while the file has a segment; sharing after unsharing makes a new one), and the public URL of a
// file whose folder rule is marked public.
import crypto from 'node:crypto';
import { Errors } from '../../platform/errors';
import { safeEqual } from '../../platform/crypto';
import type { ProjectRow } from '../projects';
import { isPublicFolder } from './access-rules';
import type { StorageRepository } from './storage.repository';
import type { StorageObjectRow, StorageRuleRow } from './storage.tables';

export interface SharingDeps {
  repo: Pick<StorageRepository, 'find' | 'share' | 'unshare'>;
  /** The project's folder rules (storage-access.repository.ts). */
  rules: (projectId: string) => Promise<Pick<StorageRuleRow, 'folder' | 'public'>[]>;
}

/** 18 random bytes: the segment the spec's share links have always had. */
const newSegment = () => crypto.randomBytes(18).toString('base64url');

export class Sharing {
  constructor(private readonly d: SharingDeps) {}

  /** Shares the project's file (a file already shared keeps its link); 404 when it is not the project's. */
  async share(project: Pick<ProjectRow, 'id'>, objectId: string): Promise<StorageObjectRow> {
    const row = await this.d.repo.share(project.id, objectId, newSegment());
    if (!row) throw Errors.notFound('File');
    return row;
  }

  /** Ends the file's share link (nothing to do when it is not shared); 404 when it is not the project's. */
  async unshare(project: Pick<ProjectRow, 'id'>, objectId: string): Promise<StorageObjectRow> {
    const row = await this.d.repo.unshare(project.id, objectId);
    if (!row) throw Errors.notFound('File');
    return row;
  }

  /** The file behind a share link, or 404: a wrong segment, an unshared file and no file look alike. */
  async shared(segment: string, objectId: string): Promise<StorageObjectRow> {
    const row = await this.d.repo.find(objectId);
    if (!row || row.shareSegment === null || !safeEqual(row.shareSegment, segment)) throw Errors.notFound('File');
    return row;
  }

  /** The file behind a public URL while its folder is public, or 404 (a private file looks like none). */
  async publicFile(objectId: string): Promise<StorageObjectRow> {
    const row = await this.d.repo.find(objectId);
    if (!row || !isPublicFolder(await this.d.rules(row.projectId), row.folder)) throw Errors.notFound('File');
    return row;
  }
}
