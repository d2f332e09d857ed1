// File access rules: the same four rules as the project database's tables (database/access-rules.ts),
// per folder of the bucket instead of per table. They govern calls with the publishable key; the
// secret key alone is not subject to them (the console neither). A file follows the rule of its own
// folder or of the nearest folder above it that has one; no rule at all means no app access.
// A rule may also mark its files public: readable by anyone, without a key, at their public URL
// (independent of the access below, which is about calls made with the key).
//
//   none       no app access
//   read       anyone with the key may list and download; nobody may upload or delete
//   signed_in  signed-in end users may list, download, upload and delete every file
//   owner      a file belongs to the end user who uploaded it: each end user lists, downloads and
//              deletes only their own files, and uploads as themself
import type { StorageAccess, StorageObjectRow } from './storage.tables';

/** Who calls: the secret key alone has full access; otherwise the rules decide, for the end user if any. */
export interface StorageCaller {
  fullAccess: boolean;
  endUserId: string | null;
}

export const FULL_ACCESS: StorageCaller = { fullAccess: true, endUserId: null };

/** A folder: "" or up to 8 names joined by "/"; no "." or ".." names (openapi.yaml StorageFolder). */
export const FOLDER_PATTERN = /^([A-Za-z0-9_][A-Za-z0-9._-]{0,62}(\/[A-Za-z0-9_][A-Za-z0-9._-]{0,62}){0,7})?$/;
export const FOLDER_MAX_LENGTH = 255;
export const MAX_RULES_PER_PROJECT = 100;

export function folderProblem(folder: string): string | undefined {
  if (folder.length > FOLDER_MAX_LENGTH) return `must be at most ${FOLDER_MAX_LENGTH} characters`;
  if (!FOLDER_PATTERN.test(folder))
    return 'must be a folder like "avatars" or "users/photos": names of letters, digits, ".", "_" or "-" joined by "/", no "." or ".." parts';
  return undefined;
}

/** Whether `folder` is `under` or inside it ("" holds everything). */
export function inFolder(folder: string, under: string): boolean {
  return under === '' || folder === under || folder.startsWith(`${under}/`);
}

/** The rule that governs a folder: the nearest rule at or above it, or undefined when none does. */
export function governingRule<R extends { folder: string }>(rules: readonly R[], folder: string): R | undefined {
  let best: R | undefined;
  for (const rule of rules) if (inFolder(folder, rule.folder) && (!best || rule.folder.length > best.folder.length)) best = rule;
  return best;
}

/** The access the governing rule gives (no rule: none). */
export function accessOf(rules: readonly { folder: string; access: StorageAccess }[], folder: string): StorageAccess {
  return governingRule(rules, folder)?.access ?? 'none';
}

/** Whether the governing rule makes a folder's files public (readable by anyone at their public URL). */
export function isPublicFolder(rules: readonly { folder: string; public: boolean }[], folder: string): boolean {
  return governingRule(rules, folder)?.public ?? false;
}

export function mayRead(access: StorageAccess, caller: StorageCaller, file: Pick<StorageObjectRow, 'ownerId'>): boolean {
  if (caller.fullAccess) return true;
  if (access === 'read') return true;
  if (access === 'signed_in') return caller.endUserId !== null;
  if (access === 'owner') return caller.endUserId !== null && file.ownerId === caller.endUserId;
  return false;
}

/** Upload into a folder (file undefined) or delete a file. */
export function mayWrite(access: StorageAccess, caller: StorageCaller, file?: Pick<StorageObjectRow, 'ownerId'>): boolean {
  if (caller.fullAccess) return true;
  if (caller.endUserId === null) return false;
  if (access === 'signed_in') return true;
  if (access === 'owner') return file === undefined || file.ownerId === caller.endUserId;
  return false;
}

/** Why an upload was refused, for the developer reading the 403. */
export function uploadRefusal(access: StorageAccess, folder: string, caller: StorageCaller): string {
  const where = folder === '' ? 'the bucket\'s root' : `folder "${folder}"`;
  if (access === 'none') return `The access rules give apps no access to ${where}: set a rule in the console's Storage screen, or upload with the secret key from a server`;
  if (access === 'read') return `The access rule of ${where} is "read": apps may read its files, not upload`;
  if (caller.endUserId === null) return `The access rule of ${where} is "${access}": uploads need a signed-in end user's token (X-Hostbase-User-Token)`;
  return `The access rules do not let this caller upload to ${where}`;
}
