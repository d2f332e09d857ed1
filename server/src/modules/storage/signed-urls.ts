// Signed URLs: how apps (and the console's previews) show a private file without a key. Short-lived
// (1 hour unless asked otherwise, at most STORAGE_SIGNED_URL_MAX_SECONDS), signed for the caller
// that asked (signed-url-token.ts), stored nowhere, and checked against the current state at every
// download: the file still exists, the end user it was made for still exists with the same
// password, and the folder's rule still lets that caller read it. So a rule set to no access, a
// removed end user or a deleted file ends every URL at once, on every instance.
import type { AppCaller } from '../caller';
import { Errors } from '../../platform/errors';
import type { Clock } from '../../platform/clock';
import type { ProjectRow } from '../projects';
import { accessOf, FULL_ACCESS, mayRead, type StorageCaller } from './access-rules';
import type { SignedUrlCaller, SignedUrlSigner } from './signed-url-token';
import { issuerOf, storageCaller } from './storage-access';
import type { StorageService } from './storage.service';
import type { StorageObjectRow, StorageRuleRow } from './storage.tables';

/** When the caller names no expiry: an hour, or the platform's maximum when that is shorter. */
export const DEFAULT_SIGNED_URL_SECONDS = 3600;

export interface SignedUrlsDeps {
  storage: Pick<StorageService, 'findFile' | 'findFiles' | 'owned'>;
  /** The project's folder rules (storage-access.repository.ts). */
  rules: (projectId: string) => Promise<Pick<StorageRuleRow, 'folder' | 'access'>[]>;
  /** An end user of the project as of now (end-users' face); undefined once removed. */
  endUser: (projectId: string, userId: string) => Promise<{ id: string; tokenVersion: number } | undefined>;
  signer: SignedUrlSigner;
  clock: Clock;
  /** PUBLIC_URL: URLs are {PUBLIC_URL}/api/storage/v1/object/sign/{object_id}?token=… */
  publicUrl: string;
  /** STORAGE_SIGNED_URL_MAX_SECONDS. */
  maxSeconds: number;
}

export interface SignedUrlView {
  object_id: string;
  url: string;
  expires_at: string;
}

export class SignedUrls {
  constructor(private readonly d: SignedUrlsDeps) {}

  /** One URL for an app's caller, who must be allowed to read the file now (else 404). */
  async forApp(app: AppCaller, objectId: string, seconds?: number): Promise<SignedUrlView> {
    const [entry] = await this.signForApp(app, [objectId], this.expiry(seconds));
    if (!entry?.url) throw Errors.notFound('File');
    return entry as SignedUrlView;
  }

  /**
   * A URL for each object id, in order; null (with "File not found") for one that is not the
   * project's or that the caller may not read: the two look alike.
   */
  manyForApp(app: AppCaller, objectIds: string[], seconds?: number) {
    return this.signForApp(app, objectIds, this.expiry(seconds));
  }

  /** One read of the files and one of the rules, whatever the count. */
  private async signForApp(app: AppCaller, objectIds: string[], expiresAt: number) {
    const caller = storageCaller(app);
    const [files, rules] = await Promise.all([this.d.storage.findFiles(app.project.id, objectIds), caller.fullAccess ? [] : this.d.rules(app.project.id)]);
    const readable = new Map(files.filter((f) => mayRead(accessOf(rules, f.folder), caller, f)).map((f) => [f.objectId, f]));
    const signedFor = signedCaller(app);
    return objectIds.map((id) => {
      const file = readable.get(id);
      return file ? this.view(file, signedFor, expiresAt) : { object_id: id, url: null, expires_at: null, error: 'File not found' };
    });
  }

  /** A URL for the console (the developer: no rule applies), to preview or download a private file. */
  async forDeveloper(project: ProjectRow, objectId: string, seconds?: number): Promise<SignedUrlView> {
    const file = await this.d.storage.owned(project, objectId);
    return this.view(file, { kind: 'developer' }, this.expiry(seconds));
  }

  /**
   * The file a signed URL serves now, or why not: 404 "File not found" for no such file, a wrong
   * or tampered signature, a removed end user or a rule that no longer allows the caller (none of
   * which says whether the file exists); 403 for a genuine URL past its expiry.
   */
  async resolve(objectId: string, token: string): Promise<StorageObjectRow> {
    const claims = this.d.signer.read(token);
    const file = claims && (await this.d.storage.findFile(objectId));
    if (!claims || !file) throw Errors.notFound('File');
    let caller: StorageCaller = FULL_ACCESS;
    let tokenVersion = 0;
    if (claims.caller === 'k') caller = { fullAccess: false, endUserId: null };
    else if (claims.caller !== 'd') {
      const user = await this.d.endUser(file.projectId, claims.caller);
      if (!user) throw Errors.notFound('File');
      caller = { fullAccess: false, endUserId: user.id };
      tokenVersion = user.tokenVersion;
    }
    if (!this.d.signer.verify(claims, file.projectId, file.objectId, tokenVersion)) throw Errors.notFound('File');
    if (claims.expiresAt * 1000 <= this.d.clock.now().getTime()) throw Errors.forbidden('This signed URL has expired');
    if (!caller.fullAccess && !mayRead(accessOf(await this.d.rules(file.projectId), file.folder), caller, file)) throw Errors.notFound('File');
    return file;
  }

  /** The expiry, in Unix seconds, of a URL asked for `seconds` (absent: the default). */
  private expiry(seconds?: number): number {
    const max = this.d.maxSeconds;
    const s = seconds ?? Math.min(DEFAULT_SIGNED_URL_SECONDS, max);
    if (!Number.isInteger(s) || s < 1) throw Errors.validation('body/expires_in must be a whole number of seconds, at least 1');
    if (s > max) throw Errors.validation(`body/expires_in must be at most ${max} seconds on this platform (STORAGE_SIGNED_URL_MAX_SECONDS)`);
    return Math.floor(this.d.clock.now().getTime() / 1000) + s;
  }

  private view(file: StorageObjectRow, caller: SignedUrlCaller, expiresAt: number): SignedUrlView {
    const token = this.d.signer.token(file.projectId, file.objectId, caller, expiresAt);
    return {
      object_id: file.objectId,
      url: `${this.d.publicUrl}/api/storage/v1/object/sign/${file.objectId}?token=${token}`,
      expires_at: new Date(expiresAt * 1000).toISOString(),
    };
  }
}

/** Whom an app's URL is signed for: the developer (secret key alone), an end user, or the publishable key alone. */
function signedCaller(app: AppCaller): SignedUrlCaller {
  const kind = issuerOf(app);
  return kind === 'user' ? { kind, userId: app.endUser!.id, tokenVersion: app.endUser!.tokenVersion } : { kind };
}
