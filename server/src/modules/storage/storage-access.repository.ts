// Drizzle queries of file access: folder rules, the page of files a caller may read (the rules
// applied in SQL, so paging and totals never count a file the caller can't see), and signed links
// (their state, expiry included, decided by the database's clock so every instance agrees).
import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { isUuid } from '../../platform/ids';
import {
  storageObjects,
  storageRules,
  storageSignedLinks,
  type SignedLinkIssuer,
  type SignedLinkRow,
  type StorageAccess,
  type StorageObjectRow,
  type StorageRuleRow,
} from './storage.tables';
import { MAX_RULES_PER_PROJECT } from './access-rules';

/** The rule governing each file: the nearest folder rule at or above its folder (none: null). */
const governingAccess = sql`(SELECT r.access FROM storage_rules r
  WHERE r.project_id = ${storageObjects.projectId}
    AND (r.folder = '' OR r.folder = ${storageObjects.folder} OR starts_with(${storageObjects.folder}, r.folder || '/'))
  ORDER BY length(r.folder) DESC LIMIT 1)`;

export class StorageAccessRepository {
  constructor(private readonly db: Db) {}

  rules(projectId: string): Promise<StorageRuleRow[]> {
    return this.db.select().from(storageRules).where(eq(storageRules.projectId, projectId)).orderBy(storageRules.folder);
  }

  /**
   * Sets a folder's rule (and its public flag; undefined keeps the current one, false for a new
   * rule); undefined when the project already has the most rules and this folder has none.
   */
  async setRule(projectId: string, folder: string, access: StorageAccess, isPublic?: boolean): Promise<StorageRuleRow | undefined> {
    return this.db.transaction(async (tx) => {
      // One writer of a project's rules at a time, for the count check: a lock of storage's own,
      // held to the transaction's end (the project's row is the projects module's).
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`hostbase-storage-rules:${projectId}`}))`);
      const [{ n }] = await tx.select({ n: sql<number>`count(*)::int` }).from(storageRules).where(eq(storageRules.projectId, projectId));
      const [existing] = await tx.select({ folder: storageRules.folder }).from(storageRules).where(and(eq(storageRules.projectId, projectId), eq(storageRules.folder, folder)));
      if (!existing && n >= MAX_RULES_PER_PROJECT) return undefined;
      const [row] = await tx
        .insert(storageRules)
        .values({ projectId, folder, access, public: isPublic ?? false, updatedAt: sql`now()` })
        .onConflictDoUpdate({ target: [storageRules.projectId, storageRules.folder], set: { access, ...(isPublic === undefined ? {} : { public: isPublic }), updatedAt: sql`now()` } })
        .returning();
      return row;
    });
  }

  async deleteRule(projectId: string, folder: string): Promise<boolean> {
    const rows = await this.db.delete(storageRules).where(and(eq(storageRules.projectId, projectId), eq(storageRules.folder, folder))).returning();
    return rows.length > 0;
  }

  /**
   * A page of the files a rule-bound caller may read (newest first), in `folder` and below, with
   * their count. endUserId null: a caller with the key only.
   */
  async readablePage(projectId: string, endUserId: string | null, folder: string, limit: number, offset: number): Promise<{ rows: StorageObjectRow[]; total: number }> {
    const uid = endUserId === null ? sql`NULL::uuid` : sql`${endUserId}::uuid`;
    const readable = sql`CASE ${governingAccess}
      WHEN 'read' THEN true
      WHEN 'signed_in' THEN ${uid} IS NOT NULL
      WHEN 'owner' THEN ${storageObjects.ownerId} = ${uid}
      ELSE false END`;
    const conditions: SQL[] = [eq(storageObjects.projectId, projectId), sql`coalesce(${readable}, false)`];
    if (folder !== '') conditions.push(sql`(${storageObjects.folder} = ${folder} OR starts_with(${storageObjects.folder}, ${folder + '/'}))`);
    return this.page(conditions, limit, offset);
  }

  /** A page of every file of the project in `folder` and below (secret key, console). */
  async folderPage(projectId: string, folder: string, limit: number, offset: number): Promise<{ rows: StorageObjectRow[]; total: number }> {
    return this.page([eq(storageObjects.projectId, projectId), sql`(${storageObjects.folder} = ${folder} OR starts_with(${storageObjects.folder}, ${folder + '/'}))`], limit, offset);
  }

  /** Newest first; the total of all matching rows comes with the page (a page past the end counts them alone). */
  private async page(conditions: SQL[], limit: number, offset: number): Promise<{ rows: StorageObjectRow[]; total: number }> {
    const found = await this.db
      .select({ row: storageObjects, total: sql<string>`count(*) OVER ()` })
      .from(storageObjects)
      .where(and(...conditions))
      .orderBy(desc(storageObjects.createdAt), desc(storageObjects.objectId))
      .limit(limit)
      .offset(offset);
    if (found.length > 0 || offset === 0) return { rows: found.map((f) => f.row), total: Number(found[0]?.total ?? 0) };
    const [total] = await this.db.select({ n: sql<string>`count(*)` }).from(storageObjects).where(and(...conditions));
    return { rows: [], total: Number(total?.n ?? 0) };
  }

  /** A new link, expiring `seconds` from now by the database's clock. */
  async createLink(
    values: { id: string; projectId: string; objectId: string; tokenHash: string; createdBy: string | null; issuer: SignedLinkIssuer },
    seconds: number,
  ): Promise<SignedLinkRow> {
    const [row] = await this.db
      .insert(storageSignedLinks)
      .values({ ...values, expiresAt: sql`now() + make_interval(secs => ${seconds})`, createdAt: sql`now()` })
      .returning();
    return row!;
  }

  /** The project's links (newest first), with their file's name; of one file when objectId is given. */
  async links(projectId: string, objectId?: string, limit = 100): Promise<(SignedLinkRow & { name: string })[]> {
    const conditions = [eq(storageSignedLinks.projectId, projectId)];
    if (objectId !== undefined) conditions.push(eq(storageSignedLinks.objectId, objectId));
    const rows = await this.db
      .select({ link: storageSignedLinks, name: storageObjects.name })
      .from(storageSignedLinks)
      .innerJoin(storageObjects, eq(storageObjects.objectId, storageSignedLinks.objectId))
      .where(and(...conditions))
      .orderBy(desc(storageSignedLinks.createdAt), desc(storageSignedLinks.id))
      .limit(limit);
    return rows.map((r) => ({ ...r.link, name: r.name }));
  }

  async link(projectId: string, linkId: string): Promise<SignedLinkRow | undefined> {
    if (!isUuid(linkId)) return undefined;
    const [row] = await this.db.select().from(storageSignedLinks).where(and(eq(storageSignedLinks.projectId, projectId), eq(storageSignedLinks.id, linkId))).limit(1);
    return row;
  }

  /** Revokes a link (a revoked one stays as it was); false when the project has no such link. */
  async revoke(projectId: string, linkId: string): Promise<boolean> {
    if (!isUuid(linkId)) return false;
    await this.db
      .update(storageSignedLinks)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(storageSignedLinks.projectId, projectId), eq(storageSignedLinks.id, linkId), isNull(storageSignedLinks.revokedAt)));
    return (await this.link(projectId, linkId)) !== undefined;
  }

  /** A link by its secret's hash, with whether it is still valid by the database's clock. */
  async linkByHash(tokenHash: string): Promise<{ link: SignedLinkRow; expired: boolean } | undefined> {
    const [row] = await this.db
      .select({ link: storageSignedLinks, expired: sql<boolean>`${storageSignedLinks.expiresAt} <= now()` })
      .from(storageSignedLinks)
      .where(eq(storageSignedLinks.tokenHash, tokenHash))
      .limit(1);
    return row;
  }

  /** Counts one download, if the link is still valid at this moment; false when it no longer is. */
  async countDownload(linkId: string): Promise<boolean> {
    const rows = await this.db
      .update(storageSignedLinks)
      .set({ downloadCount: sql`${storageSignedLinks.downloadCount} + 1` })
      .where(and(eq(storageSignedLinks.id, linkId), isNull(storageSignedLinks.revokedAt), sql`${storageSignedLinks.expiresAt} > now()`))
      .returning({ id: storageSignedLinks.id });
    return rows.length > 0;
  }
}
