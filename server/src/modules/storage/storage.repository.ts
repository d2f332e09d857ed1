// Drizzle queries for stored files. The quota check and the insert share one transaction that
// locks the owner's account row, so two concurrent uploads can't both squeeze under the quota.
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { isUuid } from '../../lib/ids';
import { accounts } from '../accounts/accounts.tables';
import { projects } from '../projects/projects.tables';
import { storageObjects, type NewStorageObject, type StorageObjectRow } from './storage.tables';

export interface Usage {
  plan: string;
  usedBytes: number;
}

export class StorageRepository {
  constructor(private readonly db: Db) {}

  /** The owner's plan and the bytes stored across all of the owner's projects. */
  async usage(ownerId: string, db: Pick<Db, 'select'> = this.db): Promise<Usage> {
    const [account] = await db.select({ plan: accounts.plan }).from(accounts).where(eq(accounts.id, ownerId)).limit(1);
    const [sum] = await db
      .select({ used: sql<string>`coalesce(sum(${storageObjects.objectSize}), 0)` })
      .from(storageObjects)
      .innerJoin(projects, eq(projects.id, storageObjects.projectId))
      .where(eq(projects.ownerId, ownerId));
    return { plan: account?.plan ?? 'hobby', usedBytes: Number(sum?.used ?? 0) };
  }

  /**
   * Inserts the row if the owner's usage plus its size stays within `quotaFor(plan)`; else
   * returns undefined and inserts nothing.
   */
  async insertWithinQuota(ownerId: string, row: NewStorageObject, quotaFor: (plan: string) => number): Promise<StorageObjectRow | undefined> {
    return this.db.transaction(async (tx) => {
      // Serialises uploads of one account (not of the platform) for the check-then-insert.
      await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, ownerId)).for('update');
      const { plan, usedBytes } = await this.usage(ownerId, tx);
      if (usedBytes + row.objectSize > quotaFor(plan)) return undefined;
      const [inserted] = await tx.insert(storageObjects).values(row).returning();
      return inserted;
    });
  }

  async page(projectId: string, limit: number, offset: number): Promise<{ rows: StorageObjectRow[]; total: number }> {
    const rows = await this.db
      .select()
      .from(storageObjects)
      .where(eq(storageObjects.projectId, projectId))
      .orderBy(desc(storageObjects.createdAt), desc(storageObjects.objectId))
      .limit(limit)
      .offset(offset);
    const [total] = await this.db.select({ n: count() }).from(storageObjects).where(eq(storageObjects.projectId, projectId));
    return { rows, total: Number(total?.n ?? 0) };
  }

  async find(objectId: string): Promise<StorageObjectRow | undefined> {
    if (!isUuid(objectId)) return undefined;
    const [row] = await this.db.select().from(storageObjects).where(eq(storageObjects.objectId, objectId)).limit(1);
    return row;
  }

  /** Deletes the given ids that belong to the project (others are ignored) and returns them. */
  async deleteOwned(projectId: string, objectIds: string[]): Promise<StorageObjectRow[]> {
    const ids = objectIds.filter(isUuid);
    if (ids.length === 0) return [];
    return this.db
      .delete(storageObjects)
      .where(and(eq(storageObjects.projectId, projectId), inArray(storageObjects.objectId, ids)))
      .returning();
  }
}
