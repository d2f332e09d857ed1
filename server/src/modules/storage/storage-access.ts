// File access for apps: the folder access rules (access-rules.ts) applied to calls with the
// project's key, and signed links to files (a secret URL that serves one file without a key until
// it expires or is revoked, and while the caller it was made for may still read the file; state in
// the database, so every instance agrees at once).
import crypto from 'node:crypto';
import type { AppCaller } from '../caller';
import { AppError, Errors } from '../../platform/errors';
import { randomToken, sha256 } from '../../platform/crypto';
import { isUuid } from '../../platform/ids';
import type { ProjectRow } from '../projects';
import { accessOf, mayRead, mayWrite, uploadRefusal, type StorageCaller } from './access-rules';
import type { StorageAccessRepository } from './storage-access.repository';
import type { FormPart, StorageService } from './storage.service';
import type { SignedLinkIssuer, SignedLinkRow, StorageAccess, StorageObjectRow, StorageRuleRow } from './storage.tables';

const LINK_PREFIX = 'hbs_';
/** The longest a signed link may live: 7 days. */
export const MAX_LINK_SECONDS = 7 * 24 * 3600;

export interface StorageAccessDeps {
  repo: StorageAccessRepository;
  storage: StorageService;
  /** PUBLIC_URL: signed links are {PUBLIC_URL}/api/storage/v1/signed/{token}. */
  publicUrl: string;
}

/** The secret key alone has full access; the publishable key (or either key with an end user's token) follows the rules. */
export function storageCaller(app: AppCaller): StorageCaller {
  return { fullAccess: app.key === 'secret' && !app.endUser, endUserId: app.endUser?.id ?? null };
}

/** Whom a link or URL an app makes is for: the developer (the secret key alone), an end user, or the publishable key alone. */
export function issuerOf(app: AppCaller): SignedLinkIssuer {
  const caller = storageCaller(app);
  return caller.fullAccess ? 'developer' : caller.endUserId ? 'user' : 'key';
}

export class StorageAccessService {
  constructor(private readonly d: StorageAccessDeps) {}

  // ------------------------------------------------------------------ rules (console)

  rules(project: ProjectRow): Promise<StorageRuleRow[]> {
    return this.d.repo.rules(project.id);
  }

  async setRule(project: ProjectRow, folder: string, access: StorageAccess, isPublic?: boolean): Promise<StorageRuleRow> {
    const row = await this.d.repo.setRule(project.id, folder, access, isPublic);
    if (!row) throw Errors.conflict('A project can have at most 100 folder rules: remove one first');
    return row;
  }

  async deleteRule(project: ProjectRow, folder: string): Promise<void> {
    if (!(await this.d.repo.deleteRule(project.id, folder))) throw Errors.notFound('Rule');
  }

  // ------------------------------------------------------------------ app calls

  list(app: AppCaller, page: number, folder = '') {
    const caller = storageCaller(app);
    if (caller.fullAccess) return this.d.storage.list(app.project, page, { folder });
    return this.d.storage.list(app.project, page, {
      folder,
      readable: (f, limit, offset) => this.d.repo.readablePage(app.project.id, caller.endUserId, f, limit, offset),
    });
  }

  upload(app: AppCaller, form: AsyncIterable<FormPart>): Promise<StorageObjectRow> {
    const caller = storageCaller(app);
    return this.d.storage.upload(app.project, form, {
      ownerId: caller.endUserId,
      authorize: async (folder) => {
        if (caller.fullAccess) return;
        const access = accessOf(await this.d.repo.rules(app.project.id), folder);
        if (!mayWrite(access, caller)) throw Errors.forbidden(uploadRefusal(access, folder, caller));
      },
    });
  }

  /** A file the caller may read, or 404 (one it may not read is indistinguishable from none). */
  async readable(app: AppCaller, objectId: string): Promise<StorageObjectRow> {
    const row = await this.d.storage.owned(app.project, objectId);
    const caller = storageCaller(app);
    if (caller.fullAccess) return row;
    if (!mayRead(accessOf(await this.d.repo.rules(app.project.id), row.folder), caller, row)) throw Errors.notFound('File');
    return row;
  }

  /** A file the caller may delete: 404 when it may not even read it, 403 when it may only read it. */
  async writable(app: AppCaller, objectId: string): Promise<StorageObjectRow> {
    const row = await this.readable(app, objectId);
    const caller = storageCaller(app);
    if (caller.fullAccess) return row;
    const access = accessOf(await this.d.repo.rules(app.project.id), row.folder);
    if (!mayWrite(access, caller, row)) {
      const where = row.folder === '' ? "the bucket's root" : `folder "${row.folder}"`;
      throw Errors.forbidden(
        caller.endUserId === null
          ? `The access rule of ${where} is "${access}": deleting needs a signed-in end user's token (or the secret key)`
          : `The access rule of ${where} is "${access}": apps may read its files, not delete them`,
      );
    }
    return row;
  }

  async delete(app: AppCaller, objectId: string): Promise<void> {
    const row = await this.writable(app, objectId);
    await this.d.storage.delete(app.project, [row.objectId]);
  }

  async createLinkFor(app: AppCaller, objectId: string, seconds: number) {
    const row = await this.readable(app, objectId);
    return this.createLink(app.project, row, seconds, issuerOf(app), storageCaller(app).endUserId);
  }

  /** Revoking from an app: the secret key, or a caller allowed to delete the link's file. */
  async revokeFor(app: AppCaller, linkId: string): Promise<void> {
    const link = await this.d.repo.link(app.project.id, linkId);
    if (!link) throw Errors.notFound('Signed link');
    try {
      await this.writable(app, link.objectId);
    } catch (err) {
      // A file the caller may read but not delete: its links are not the caller's to revoke.
      throw err instanceof AppError && err.statusCode === 403 ? Errors.notFound('Signed link') : err;
    }
    await this.d.repo.revoke(app.project.id, linkId);
  }

  // ------------------------------------------------------------------ signed links

  async createLink(project: ProjectRow, file: StorageObjectRow, seconds: number, issuer: SignedLinkIssuer, createdBy: string | null) {
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_LINK_SECONDS) throw Errors.validation(`body/expires_in must be 1 to ${MAX_LINK_SECONDS} seconds`);
    const token = LINK_PREFIX + randomToken(32);
    const link = await this.d.repo.createLink({ id: crypto.randomUUID(), projectId: project.id, objectId: file.objectId, tokenHash: sha256(token), createdBy, issuer }, seconds);
    return { ...this.linkView(link, file.name), url: `${this.d.publicUrl}/api/storage/v1/signed/${token}` };
  }

  async createLinkInConsole(project: ProjectRow, objectId: string, seconds: number) {
    const file = await this.d.storage.owned(project, objectId);
    return this.createLink(project, file, seconds, 'developer', null);
  }

  async links(project: ProjectRow, objectId?: string) {
    if (objectId !== undefined && !isUuid(objectId)) return [];
    return (await this.d.repo.links(project.id, objectId)).map((l) => this.linkView(l, l.name));
  }

  async revoke(project: ProjectRow, linkId: string): Promise<void> {
    if (!(await this.d.repo.revoke(project.id, linkId))) throw Errors.notFound('Signed link');
  }

  /**
   * The link and file behind a signed link; 403 expired or revoked, with the reason; 404 unknown,
   * its file deleted, or the caller it was made for no longer allowed to read the file (a removed
   * end user; a rule changed), which says nothing of the file.
   */
  async signed(token: string): Promise<{ link: SignedLinkRow; file: StorageObjectRow }> {
    if (!token.startsWith(LINK_PREFIX) || token.length > 128) throw Errors.notFound('Signed link');
    const found = await this.d.repo.linkByHash(sha256(token));
    if (!found) throw Errors.notFound('Signed link');
    if (found.link.revokedAt) throw Errors.forbidden('This signed link was revoked');
    if (found.expired) throw Errors.forbidden('This signed link has expired');
    const file = await this.fileOf(found.link);
    return { link: found.link, file };
  }

  /** Counts a download; false when the link stopped being valid meanwhile. */
  countDownload(link: SignedLinkRow): Promise<boolean> {
    return this.d.repo.countDownload(link.id);
  }

  private async fileOf(link: SignedLinkRow): Promise<StorageObjectRow> {
    const row = await this.d.storage.findFile(link.objectId);
    if (!row || row.projectId !== link.projectId) throw Errors.notFound('Signed link');
    if (link.issuer === 'developer') return row;
    // An end user's link loses its creator when they are removed (created_by is set null).
    if (link.issuer === 'user' && link.createdBy === null) throw Errors.notFound('Signed link');
    const caller: StorageCaller = { fullAccess: false, endUserId: link.issuer === 'user' ? link.createdBy : null };
    if (!mayRead(accessOf(await this.d.repo.rules(link.projectId), row.folder), caller, row)) throw Errors.notFound('Signed link');
    return row;
  }

  linkView(l: SignedLinkRow, name?: string) {
    return {
      link_id: l.id,
      object_id: l.objectId,
      ...(name === undefined ? {} : { name }),
      expires_at: l.expiresAt.toISOString(),
      revoked_at: l.revokedAt?.toISOString() ?? null,
      download_count: l.downloadCount,
      created_at: l.createdAt.toISOString(),
    };
  }
}
