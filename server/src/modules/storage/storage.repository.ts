// Drizzle queries for stored files, and the one storage accounting of an account: the bytes of its
// stored files (storage_objects.object_size) plus the bytes its site deployments hold
// (site_deployments.stored_bytes: archive and extracted files). A charge (an upload's row, a
// deploy's reservation) and its quota check share one transaction that locks the owner's account
// row, so two concurrent writers of one account can't both squeeze under the quota.
import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { insertJsonRows, selectJsonRows, type JsonRow, type Querier } from '../../db/json-rows';
import { isUuid } from '../../platform/ids';
import type { LookupCache } from '../../platform/lookup-cache';
import { accounts } from '../accounts/accounts.tables';
import { projects } from '../projects/projects.tables';
import { siteDeployments } from '../hosting/hosting.tables';
import { storageObjects, storageRules, type NewStorageObject, type StorageObjectRow } from './storage.tables';
import { activityNote, transactionWithActivity } from '../activity';

export interface Usage {
  plan: string;
  /** filesBytes + hostingBytes: what the plan's storage limit applies to. */
  usedBytes: number;
  filesBytes: number;
  hostingBytes: number;
}

/** A drizzle transaction: what a charge's write runs in (a PgTransaction is a PgDatabase). */
export type Tx = Db;

export type Charge<T> = { ok: true; value: T; usage: Usage } | { ok: false; usage: Usage; reason: 'quota' | 'gone' };

/** The owner's plan and bytes stored (files, sites) as one statement; see usage(). */
function usageQuery(db: Pick<Db, 'select'>, ownerId: ReturnType<typeof sql.placeholder>) {
  const files = db
    .select({ used: sql`coalesce(sum(${storageObjects.objectSize}), 0)` })
    .from(storageObjects)
    .innerJoin(projects, eq(projects.id, storageObjects.projectId))
    .where(eq(projects.ownerId, accounts.id));
  const hosting = db
    .select({ used: sql`coalesce(sum(${siteDeployments.storedBytes}), 0)` })
    .from(siteDeployments)
    .innerJoin(projects, eq(projects.id, siteDeployments.projectId))
    .where(eq(projects.ownerId, accounts.id));
  return db
    .select({ plan: accounts.plan, files: sql<string>`(${files})`, hosting: sql<string>`(${hosting})` })
    .from(accounts)
    .where(eq(accounts.id, ownerId))
    .limit(1);
}

export class StorageRepository {
  /** Every file listing runs these two: built once, prepared once per connection. */
  private readonly usageStatement;
  private readonly pageStatement;

  /**
   * lookups: a write of files or stored bytes waits until every instance heard its notices
   * (migrations/0019), so a listing anywhere shows it once the caller hears it is done.
   */
  constructor(
    private readonly db: Db,
    private readonly lookups?: Pick<LookupCache, 'barrier'>,
  ) {
    this.usageStatement = usageQuery(db, sql.placeholder('ownerId')).prepare('hostbase_storage_usage');
    this.pageStatement = db
      .select({ row: storageObjects, total: sql<string>`count(*) OVER ()` })
      .from(storageObjects)
      .where(eq(storageObjects.projectId, sql.placeholder('projectId')))
      .orderBy(desc(storageObjects.createdAt), desc(storageObjects.objectId))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare('hostbase_storage_page');
  }

  /**
   * The owner's plan and the bytes stored across all of the owner's projects: files and sites. One
   * statement (every listing reads it: three round trips cost more than the sums); outside a
   * transaction a prepared one (building the query and planning it cost more than running it).
   */
  async usage(ownerId: string, db?: Pick<Db, 'select'>): Promise<Usage> {
    const [row] = db ? await usageQuery(db, sql.placeholder('ownerId')).execute({ ownerId }) : await this.usageStatement.execute({ ownerId });
    const filesBytes = Number(row?.files ?? 0);
    const hostingBytes = Number(row?.hosting ?? 0);
    return { plan: row?.plan ?? 'hobby', usedBytes: filesBytes + hostingBytes, filesBytes, hostingBytes };
  }

  /**
   * The bytes stored by an account (as usage()) or by one of its projects: the one count of stored
   * bytes, which the quota, the listings and the usage report all read.
   */
  async storedBytes(scope: { accountId: string } | { projectId: string }): Promise<number> {
    if ('accountId' in scope) return (await this.usage(scope.accountId)).usedBytes;
    const files = this.db.select({ used: sql`coalesce(sum(${storageObjects.objectSize}), 0)` }).from(storageObjects).where(eq(storageObjects.projectId, scope.projectId));
    const hosting = this.db.select({ used: sql`coalesce(sum(${siteDeployments.storedBytes}), 0)` }).from(siteDeployments).where(eq(siteDeployments.projectId, scope.projectId));
    const [row] = await this.db.select({ n: sql<string>`(${files}) + (${hosting})` }).from(projects).where(eq(projects.id, scope.projectId));
    return Number(row?.n ?? 0);
  }

  /**
   * The one way bytes are charged to an account: in a transaction that locks the owner's account
   * row, checks that usage plus `bytes` stays within `quotaFor(plan)`, and runs `write` (which
   * records the bytes: an upload's row, a deployment's stored_bytes). `write` returning undefined
   * means its row is gone (nothing charged). Nothing is written when the quota would be passed.
   */
  async chargeWithinQuota<T>(ownerId: string, bytes: number, quotaFor: (plan: string) => number, write: (tx: Tx) => Promise<T | undefined>): Promise<Charge<T>> {
    const charge = await this.db.transaction(async (tx) => {
      // Serialises charges of one account (not of the platform) for the check-then-write.
      await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, ownerId)).for('update');
      const usage = await this.usage(ownerId, tx);
      if (usage.usedBytes + bytes > quotaFor(usage.plan)) return { ok: false, usage, reason: 'quota' } as const;
      const value = await write(tx as unknown as Tx);
      if (value === undefined) return { ok: false, usage, reason: 'gone' } as const;
      return { ok: true, value, usage } as const;
    });
    if (charge.ok) await this.lookups?.barrier();
    return charge;
  }

  /**
   * Inserts the row if the owner's usage plus its size stays within `quotaFor(plan)`; else
   * returns undefined and inserts nothing.
   */
  async insertWithinQuota(ownerId: string, row: NewStorageObject, quotaFor: (plan: string) => number): Promise<StorageObjectRow | undefined> {
    const charged = await this.chargeWithinQuota(ownerId, row.objectSize, quotaFor, async (tx) => {
      const [inserted] = await tx.insert(storageObjects).values(row).returning();
      return inserted;
    });
    return charged.ok ? charged.value : undefined;
  }

  /** A page and the project's file count, in one statement (the count read apart only past the last page). */
  async page(projectId: string, limit: number, offset: number): Promise<{ rows: StorageObjectRow[]; total: number }> {
    const found = await this.pageStatement.execute({ projectId, limit, offset });
    if (found.length > 0) return { rows: found.map((f) => f.row), total: Number(found[0].total) };
    if (offset === 0) return { rows: [], total: 0 };
    const [total] = await this.db.select({ n: count() }).from(storageObjects).where(eq(storageObjects.projectId, projectId));
    return { rows: [], total: Number(total?.n ?? 0) };
  }

  /** Those of `keys` that a file's row points to. */
  async existingKeys(keys: string[]): Promise<Set<string>> {
    if (!keys.length) return new Set();
    const rows = await this.db.select({ key: storageObjects.storageKey }).from(storageObjects).where(inArray(storageObjects.storageKey, keys));
    return new Set(rows.map((r) => r.key));
  }

  async find(objectId: string): Promise<StorageObjectRow | undefined> {
    if (!isUuid(objectId)) return undefined;
    const [row] = await this.db.select().from(storageObjects).where(eq(storageObjects.objectId, objectId)).limit(1);
    return row;
  }

  /** Those of `objectIds` that are the project's files (others, and ids that are no uuid, left out). */
  async findMany(projectId: string, objectIds: string[]): Promise<StorageObjectRow[]> {
    const ids = [...new Set(objectIds.filter(isUuid))];
    if (ids.length === 0) return [];
    return this.db.select().from(storageObjects).where(and(eq(storageObjects.projectId, projectId), inArray(storageObjects.objectId, ids)));
  }

  /**
   * Shares the project's file: gives it `segment` unless it is shared already (it then keeps its
   * own, in the same statement, so two concurrent shares agree). Undefined when it is not the
   * project's. Its content is unchanged, so updated_at (Last-Modified) is too.
   */
  async share(projectId: string, objectId: string, segment: string): Promise<StorageObjectRow | undefined> {
    return this.setShare(projectId, objectId, sql`coalesce(${storageObjects.shareSegment}, ${segment})`);
  }

  /** Stops sharing the project's file (its link ends at once); undefined when it is not the project's. */
  async unshare(projectId: string, objectId: string): Promise<StorageObjectRow | undefined> {
    return this.setShare(projectId, objectId, sql`NULL`);
  }

  private async setShare(projectId: string, objectId: string, segment: SQL): Promise<StorageObjectRow | undefined> {
    if (!isUuid(objectId)) return undefined;
    const [row] = await this.db
      .update(storageObjects)
      .set({ shareSegment: segment })
      .where(and(eq(storageObjects.projectId, projectId), eq(storageObjects.objectId, objectId)))
      .returning();
    // Listings on every instance show the change once the caller hears it is done.
    if (row) await this.lookups?.barrier();
    return row;
  }

  /** Deletes the given ids that belong to the project (others are ignored) and returns them. */
  async deleteOwned(projectId: string, objectIds: string[]): Promise<StorageObjectRow[]> {
    const ids = objectIds.filter(isUuid);
    if (ids.length === 0) return [];
    const deleted = await transactionWithActivity(
      this.db,
      ['deleteObjects'],
      (tx) => tx.delete(storageObjects).where(and(eq(storageObjects.projectId, projectId), inArray(storageObjects.objectId, ids))).returning(),
      (rows) => {
        activityNote('deleted', rows.length);
        return true;
      },
    );
    if (deleted.length > 0) await this.lookups?.barrier();
    return deleted;
  }
}

/** A project's files and folder rules as an archive carries them (storage.lifecycle.ts). */
export const storageArchiveRows = {
  files: (q: Querier, projectId: string, columns: readonly string[]) =>
    selectJsonRows(q, storageObjects, columns, eq(storageObjects.projectId, projectId), sql`${storageObjects.createdAt}, ${storageObjects.objectId}`),
  rules: (q: Querier, projectId: string, columns: readonly string[]) =>
    selectJsonRows(q, storageRules, columns, eq(storageRules.projectId, projectId), sql`${storageRules.folder}`),
  insertFiles: (q: Querier, columns: readonly string[], rows: JsonRow[]) => insertJsonRows(q, storageObjects, columns, rows),
  insertRules: (q: Querier, columns: readonly string[], rows: JsonRow[]) => insertJsonRows(q, storageRules, columns, rows),
};
