// Clients that completed a sign-in, remembered by the hash of a device token (developer accounts
// and a project's end users alike): exempt from the per-user failure ceiling (0007). One table per
// kind of user, same columns but the owner's: (id, <owner>, token_hash, created_at, last_used_at).
import { and, desc, eq, gt, notInArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';

export type DeviceTable<Owner extends string> = PgTable & { id: PgColumn; tokenHash: PgColumn; createdAt: PgColumn; lastUsedAt: PgColumn } & Record<Owner, PgColumn>;

export class DeviceTokens<Owner extends string> {
  constructor(
    private readonly db: Db,
    private readonly table: DeviceTable<Owner>,
    /** The owner column's property name (accountId, userId). */
    private readonly owner: Owner,
  ) {}

  /** The id of the owner's device with this token hash, used within `ttlMs`. */
  async find(ownerId: string, tokenHash: string, now: Date, ttlMs: number): Promise<string | undefined> {
    const t = this.table;
    const [row] = await this.db
      .select({ id: t.id })
      .from(t as PgTable)
      .where(and(eq(t[this.owner], ownerId), eq(t.tokenHash, tokenHash), gt(t.lastUsedAt, new Date(now.getTime() - ttlMs))))
      .limit(1);
    return row?.id as string | undefined;
  }

  async touch(id: string, now: Date): Promise<void> {
    await this.db.update(this.table).set({ lastUsedAt: now } as never).where(eq(this.table.id, id));
  }

  /** Stores a new device and keeps only the owner's `keep` most recently used. */
  async add(ownerId: string, tokenHash: string, now: Date, keep: number): Promise<void> {
    const t = this.table;
    await this.db.insert(t).values({ [this.owner]: ownerId, tokenHash, createdAt: now, lastUsedAt: now } as never);
    const newest = this.db
      .select({ id: t.id })
      .from(t as PgTable)
      .where(eq(t[this.owner], ownerId))
      .orderBy(desc(t.lastUsedAt), desc(t.createdAt))
      .limit(keep);
    await this.db.delete(t).where(and(eq(t[this.owner], ownerId), notInArray(t.id, newest)));
  }
}
