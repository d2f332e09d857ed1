// Drizzle queries for accounts and their one-time tokens. Single-use is enforced by the UPDATE
// itself (used_at IS NULL in the WHERE), so two instances can't both accept one token.
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { isUuid } from '../../lib/ids';
import { accounts, accountTokens, mfaRecoveryCodes, type AccountRow, type AccountTokenKind } from './accounts.tables';

export class AccountsRepository {
  constructor(private readonly db: Db) {}

  async findByEmail(emailNormalized: string): Promise<AccountRow | undefined> {
    const [row] = await this.db.select().from(accounts).where(eq(accounts.emailNormalized, emailNormalized)).limit(1);
    return row;
  }

  async findById(id: string): Promise<AccountRow | undefined> {
    if (!isUuid(id)) return undefined;
    const [row] = await this.db.select().from(accounts).where(eq(accounts.id, id)).limit(1);
    return row;
  }

  /** Undefined when the email is taken (the unique index decides, not a prior read). */
  async insert(values: { name: string; email: string; emailNormalized: string; passwordHash: string }): Promise<AccountRow | undefined> {
    const [row] = await this.db.insert(accounts).values(values).onConflictDoNothing({ target: accounts.emailNormalized }).returning();
    return row;
  }

  async update(id: string, values: Partial<Omit<AccountRow, 'id' | 'createdAt'>>): Promise<AccountRow | undefined> {
    const [row] = await this.db.update(accounts).set({ ...values, updatedAt: new Date() }).where(eq(accounts.id, id)).returning();
    return row;
  }

  /** Sets a new password and revokes every earlier token in one statement. */
  async setPassword(id: string, passwordHash: string): Promise<AccountRow | undefined> {
    const [row] = await this.db
      .update(accounts)
      .set({ passwordHash, tokenVersion: sql`${accounts.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(accounts.id, id))
      .returning();
    return row;
  }

  /** Records a TOTP time step as used; false when it (or a later one) was already used. */
  async claimTotpStep(id: string, step: number): Promise<boolean> {
    const rows = await this.db
      .update(accounts)
      .set({ mfaLastStep: step })
      .where(and(eq(accounts.id, id), or(isNull(accounts.mfaLastStep), lt(accounts.mfaLastStep, step))))
      .returning({ id: accounts.id });
    return rows.length === 1;
  }

  async createToken(accountId: string, kind: AccountTokenKind, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.insert(accountTokens).values({ accountId, kind, tokenHash, expiresAt });
  }

  /** Marks a valid token used and returns its account id, atomically. */
  async consumeToken(kind: AccountTokenKind, tokenHash: string, now: Date, accountId?: string): Promise<string | undefined> {
    const conditions = [
      eq(accountTokens.kind, kind),
      eq(accountTokens.tokenHash, tokenHash),
      isNull(accountTokens.usedAt),
      gt(accountTokens.expiresAt, now),
    ];
    if (accountId) conditions.push(eq(accountTokens.accountId, accountId));
    const [row] = await this.db.update(accountTokens).set({ usedAt: now }).where(and(...conditions)).returning({ accountId: accountTokens.accountId });
    return row?.accountId;
  }

  async hasOpenToken(accountId: string, kind: AccountTokenKind, now: Date): Promise<boolean> {
    const rows = await this.db
      .select({ id: accountTokens.id })
      .from(accountTokens)
      .where(and(eq(accountTokens.accountId, accountId), eq(accountTokens.kind, kind), isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, now)))
      .limit(1);
    return rows.length > 0;
  }

  async hasOpenTokenHash(accountId: string, kind: AccountTokenKind, tokenHash: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .select({ id: accountTokens.id })
      .from(accountTokens)
      .where(and(eq(accountTokens.accountId, accountId), eq(accountTokens.kind, kind), eq(accountTokens.tokenHash, tokenHash), isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, now)))
      .limit(1);
    return rows.length > 0;
  }

  /** Closes every open token of a kind (e.g. all MFA challenges once one succeeded). */
  async closeTokens(accountId: string, kind: AccountTokenKind, now: Date): Promise<void> {
    await this.db
      .update(accountTokens)
      .set({ usedAt: now })
      .where(and(eq(accountTokens.accountId, accountId), eq(accountTokens.kind, kind), isNull(accountTokens.usedAt)));
  }

  async replaceRecoveryCodes(accountId: string, codeHashes: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.accountId, accountId));
      if (codeHashes.length) await tx.insert(mfaRecoveryCodes).values(codeHashes.map((codeHash) => ({ accountId, codeHash })));
    });
  }

  async consumeRecoveryCode(accountId: string, codeHash: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(mfaRecoveryCodes)
      .set({ usedAt: now })
      .where(and(eq(mfaRecoveryCodes.accountId, accountId), eq(mfaRecoveryCodes.codeHash, codeHash), isNull(mfaRecoveryCodes.usedAt)))
      .returning({ id: mfaRecoveryCodes.id });
    return rows.length === 1;
  }
}
