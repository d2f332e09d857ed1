// Drizzle queries for a project's end users, their refresh tokens and one-time tokens, and the
// project's auth settings. Every user query is scoped by project id. Single use and rotation are
// enforced by the UPDATE's own WHERE (…_at IS NULL), so two instances can't both accept a token.
import { and, count, desc, eq, gt, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { insertJsonRows, selectJsonRows, type JsonRow, type Querier } from '../../db/json-rows';
import type { LookupCache } from '../../platform/lookup-cache';
import { isUuid } from '../../platform/ids';
import { sweepOf } from '../../platform/sweeps';
import { DeviceTokens } from '../sign-in';
import { transactionWithActivity } from '../activity';
import {
  authSettings,
  endUserDevices,
  endUserRefreshTokens,
  endUsers,
  endUserTokens,
  type EndUserRow,
  type EndUserTokenKind,
} from './end-users.tables';

export interface AuthSettings {
  allowedOrigins: string[];
  siteUrl: string | null;
  blockCommonPasswords: boolean;
}

const settingsColumns = {
  allowedOrigins: authSettings.allowedOrigins,
  siteUrl: authSettings.siteUrl,
  blockCommonPasswords: authSettings.blockCommonPasswords,
};

/** One-time and refresh tokens a day past their expiry are kept for nothing (housekeeping.ts runs them). */
export const endUserTokenSweeps = [
  sweepOf('end user tokens', `DELETE FROM end_user_tokens WHERE expires_at < now() - interval '1 day'`),
  sweepOf('end user refresh tokens', `DELETE FROM end_user_refresh_tokens WHERE expires_at < now() - interval '1 day'`),
];

export class EndUsersRepository {
  private readonly devices: DeviceTokens<'userId'>;
  /** Every signed-in app call reads its end user: built once, prepared once per connection. */
  private readonly byId;

  constructor(
    private readonly db: Db,
    /** Rows kept in memory by platform/lookup-cache.ts: after a write to one, wait until this instance heard of it. */
    private readonly lookups?: Pick<LookupCache, 'barrier' | 'forget'>,
  ) {
    this.devices = new DeviceTokens(db, endUserDevices, 'userId');
    this.byId = db
      .select()
      .from(endUsers)
      .where(and(eq(endUsers.projectId, sql.placeholder('projectId')), eq(endUsers.id, sql.placeholder('id'))))
      .limit(1)
      .prepare('hostbase_end_user_by_id');
  }

  // ------------------------------------------------------------------ settings
  /** End users of these projects who signed up or in since `since`: the monthly active users (the usage registry's count). */
  async activeCount(q: Db, projectIds: string[], since: Date): Promise<number> {
    const [row] = await q.select({ n: count() }).from(endUsers).where(and(inArray(endUsers.projectId, projectIds), gte(endUsers.lastLogin, since)));
    return Number(row?.n ?? 0);
  }

  async settings(projectId: string): Promise<AuthSettings> {
    const [row] = await this.db.select(settingsColumns).from(authSettings).where(eq(authSettings.projectId, projectId)).limit(1);
    return row ?? { allowedOrigins: [], siteUrl: null, blockCommonPasswords: true };
  }

  async saveSettings(projectId: string, values: Partial<AuthSettings>, now: Date): Promise<AuthSettings> {
    const [row] = await transactionWithActivity(this.db, ['updateAuthSettings'], (tx) =>
      tx
        .insert(authSettings)
        .values({ projectId, ...values })
        .onConflictDoUpdate({ target: authSettings.projectId, set: { ...values, updatedAt: now } })
        .returning(settingsColumns),
    );
    return row;
  }

  async originListedByAnyProject(origin: string): Promise<boolean> {
    const rows = await this.db
      .select({ one: sql<number>`1` })
      .from(authSettings)
      .where(sql`${authSettings.allowedOrigins} @> ARRAY[${origin}]::text[]`)
      .limit(1);
    return rows.length > 0;
  }

  async originListedByProject(projectId: string, origin: string): Promise<boolean> {
    const rows = await this.db
      .select({ one: sql<number>`1` })
      .from(authSettings)
      .where(and(eq(authSettings.projectId, projectId), sql`${authSettings.allowedOrigins} @> ARRAY[${origin}]::text[]`))
      .limit(1);
    return rows.length > 0;
  }

  // ------------------------------------------------------------------ users
  async list(projectId: string, limit: number, offset: number): Promise<EndUserRow[]> {
    return this.db
      .select()
      .from(endUsers)
      .where(eq(endUsers.projectId, projectId))
      .orderBy(desc(endUsers.createdAt), desc(endUsers.id))
      .limit(limit)
      .offset(offset);
  }

  async count(projectId: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(endUsers).where(eq(endUsers.projectId, projectId));
    return Number(row.n);
  }

  /** Undefined when the email is taken in this project (the unique index decides). */
  async insert(values: { projectId: string; email: string; emailNormalized: string; passwordHash: string; lastLogin?: Date }, db: Db = this.db): Promise<EndUserRow | undefined> {
    const [row] = await db
      .insert(endUsers)
      .values(values)
      .onConflictDoNothing({ target: [endUsers.projectId, endUsers.emailNormalized] })
      .returning();
    return row;
  }

  async findByEmail(projectId: string, emailNormalized: string): Promise<EndUserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(endUsers)
      .where(and(eq(endUsers.projectId, projectId), eq(endUsers.emailNormalized, emailNormalized)))
      .limit(1);
    return row;
  }

  async findById(projectId: string, id: string): Promise<EndUserRow | undefined> {
    if (!isUuid(id)) return undefined;
    const [row] = await this.byId.execute({ projectId, id });
    return row;
  }

  /** By id alone: for one-time tokens, whose row names the user (and so the project). */
  async findAnyById(id: string): Promise<EndUserRow | undefined> {
    const [row] = await this.db.select().from(endUsers).where(eq(endUsers.id, id)).limit(1);
    return row;
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    const rows = await transactionWithActivity(
      this.db,
      ['deleteAuthUser'],
      (tx) => tx.delete(endUsers).where(and(eq(endUsers.projectId, projectId), eq(endUsers.id, id))).returning({ id: endUsers.id }),
      (deleted) => deleted.length === 1,
    );
    await this.lookups?.barrier();
    return rows.length === 1;
  }

  /**
   * `db`: a transaction of the caller's, who then calls loginMarked() once it committed. No
   * barrier: last_login decides no access, so a sign-in doesn't wait for every instance to hear it
   * (each drops its copy when the row's notice arrives); this instance drops its own at once.
   */
  async touchLastLogin(id: string, now: Date, db: Db = this.db): Promise<EndUserRow> {
    const [row] = await db.update(endUsers).set({ lastLogin: now }).where(eq(endUsers.id, id)).returning();
    if (db === this.db) this.loginMarked(id);
    return row;
  }

  /** After a caller's transaction that changed only the user's last_login committed (see touchLastLogin). */
  loginMarked(id: string): void {
    this.lookups?.forget(`end_user:${id}`);
  }

  /** The user's last sign-in as the database has it now (inside a guarded write's transaction). */
  async lastLogin(id: string, db: Db = this.db): Promise<Date | null> {
    const [row] = await db.select({ lastLogin: endUsers.lastLogin }).from(endUsers).where(eq(endUsers.id, id)).limit(1);
    return row?.lastLogin ?? null;
  }

  async markVerified(id: string, now: Date): Promise<void> {
    await this.db.update(endUsers).set({ emailVerifiedAt: now, updatedAt: now }).where(eq(endUsers.id, id));
    await this.lookups?.barrier();
  }

  /** New password, older access tokens refused (token_version) and every session revoked, at once. */
  async setPassword(id: string, passwordHash: string, now: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(endUsers)
        .set({ passwordHash, tokenVersion: sql`${endUsers.tokenVersion} + 1`, updatedAt: now })
        .where(eq(endUsers.id, id));
      await tx
        .update(endUserRefreshTokens)
        .set({ revokedAt: now })
        .where(and(eq(endUserRefreshTokens.userId, id), isNull(endUserRefreshTokens.revokedAt)));
    });
    await this.lookups?.barrier();
  }

  // ------------------------------------------------------------------ refresh tokens
  async insertRefreshToken(values: { userId: string; projectId: string; familyId: string; tokenHash: string; expiresAt: Date }): Promise<void> {
    await this.db.insert(endUserRefreshTokens).values(values);
  }

  /**
   * Marks a live token of this project rotated and inserts its successor, in one transaction.
   * Undefined when the token is not live (unknown, other project, expired, revoked or rotated).
   */
  async rotateRefreshToken(
    projectId: string,
    tokenHash: string,
    next: { tokenHash: string; expiresAt: Date },
    now: Date,
  ): Promise<{ userId: string; familyId: string } | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(endUserRefreshTokens)
        .set({ rotatedAt: now })
        .where(
          and(
            eq(endUserRefreshTokens.tokenHash, tokenHash),
            eq(endUserRefreshTokens.projectId, projectId),
            isNull(endUserRefreshTokens.rotatedAt),
            isNull(endUserRefreshTokens.revokedAt),
            gt(endUserRefreshTokens.expiresAt, now),
          ),
        )
        .returning({ userId: endUserRefreshTokens.userId, familyId: endUserRefreshTokens.familyId });
      if (!row) return undefined;
      await tx.insert(endUserRefreshTokens).values({ ...row, projectId, ...next });
      return row;
    });
  }

  async findRefreshToken(projectId: string, tokenHash: string) {
    const [row] = await this.db
      .select()
      .from(endUserRefreshTokens)
      .where(and(eq(endUserRefreshTokens.tokenHash, tokenHash), eq(endUserRefreshTokens.projectId, projectId)))
      .limit(1);
    return row;
  }

  async revokeFamily(familyId: string, now: Date): Promise<void> {
    await this.db
      .update(endUserRefreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(endUserRefreshTokens.familyId, familyId), isNull(endUserRefreshTokens.revokedAt)));
  }

  // ------------------------------------------------------------------ one-time tokens
  async createToken(userId: string, kind: EndUserTokenKind, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.insert(endUserTokens).values({ userId, kind, tokenHash, expiresAt });
  }

  /** Marks a valid token used and returns its user id, atomically. */
  async consumeToken(kind: EndUserTokenKind, tokenHash: string, now: Date): Promise<string | undefined> {
    const [row] = await this.db
      .update(endUserTokens)
      .set({ usedAt: now })
      .where(and(eq(endUserTokens.kind, kind), eq(endUserTokens.tokenHash, tokenHash), isNull(endUserTokens.usedAt), gt(endUserTokens.expiresAt, now)))
      .returning({ userId: endUserTokens.userId });
    return row?.userId;
  }

  /** The user holding a valid, unused token (without using it). */
  async findByOpenToken(kind: EndUserTokenKind, tokenHash: string, now: Date): Promise<EndUserRow | undefined> {
    const [row] = await this.db
      .select({ user: endUsers })
      .from(endUserTokens)
      .innerJoin(endUsers, eq(endUsers.id, endUserTokens.userId))
      .where(and(eq(endUserTokens.kind, kind), eq(endUserTokens.tokenHash, tokenHash), isNull(endUserTokens.usedAt), gt(endUserTokens.expiresAt, now)))
      .limit(1);
    return row?.user;
  }

  // ------------------------------------------------------------------ device tokens (sign-in/device-tokens.ts)
  findDevice: DeviceTokens<string>['find'] = (...args) => this.devices.find(...args);
  touchDevice: DeviceTokens<string>['touch'] = (...args) => this.devices.touch(...args);
  addDevice: DeviceTokens<string>['add'] = (...args) => this.devices.add(...args);

  async closeTokens(userId: string, kind: EndUserTokenKind, now: Date): Promise<void> {
    await this.db
      .update(endUserTokens)
      .set({ usedAt: now })
      .where(and(eq(endUserTokens.userId, userId), eq(endUserTokens.kind, kind), isNull(endUserTokens.usedAt)));
  }
}

/** A project's auth settings and end users as an archive carries them (end-users.lifecycle.ts). */
export const authUsersArchiveRows = {
  async settings(q: Querier, projectId: string, columns: readonly string[]): Promise<JsonRow | null> {
    return (await selectJsonRows(q, authSettings, columns, eq(authSettings.projectId, projectId)))[0] ?? null;
  },
  users: (q: Querier, projectId: string, columns: readonly string[]) =>
    selectJsonRows(q, endUsers, columns, eq(endUsers.projectId, projectId), sql`${endUsers.createdAt}, ${endUsers.id}`),
  insertSettings: (q: Querier, columns: readonly string[], row: JsonRow) => insertJsonRows(q, authSettings, columns, [row]),
  insertUsers: (q: Querier, columns: readonly string[], rows: JsonRow[]) => insertJsonRows(q, endUsers, columns, rows),
};
