// Drizzle queries for accounts and their one-time tokens. Single-use is enforced by the UPDATE
// itself (used_at IS NULL in the WHERE), so two instances can't both accept one token.
import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { LookupCache } from '../../platform/lookup-cache';
import { isUuid } from '../../platform/ids';
import { sweepOf } from '../../platform/sweeps';
import { normalizeEmail, DeviceTokens } from '../sign-in';
import { accountDevices, accounts, accountTokens, mfaRecoveryCodes, type AccountRow, type AccountTokenKind } from './accounts.tables';

/** Used or not, a one-time token a day past its expiry is kept for nothing (housekeeping.ts runs it). */
export const accountTokenSweep = sweepOf('account tokens', `DELETE FROM account_tokens WHERE expires_at < now() - interval '1 day'`);

export class AccountsRepository {
  private readonly devices: DeviceTokens<'accountId'>;

  constructor(
    private readonly db: Db,
    /** Rows kept in memory by platform/lookup-cache.ts: after a write to one, wait until this instance heard of it. */
    private readonly lookups?: Pick<LookupCache, 'barrier'>,
  ) {
    this.devices = new DeviceTokens(db, accountDevices, 'accountId');
  }

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

  async update(id: string, values: Partial<Omit<AccountRow, 'id' | 'createdAt' | 'updatedAt'>>, now: Date): Promise<AccountRow | undefined> {
    const [row] = await this.db.update(accounts).set({ ...values, updatedAt: now }).where(eq(accounts.id, id)).returning();
    await this.lookups?.barrier();
    return row;
  }

  /** Sets a new password and revokes every earlier token in one statement. */
  async setPassword(id: string, passwordHash: string, now: Date): Promise<AccountRow | undefined> {
    const [row] = await this.db
      .update(accounts)
      .set({ passwordHash, tokenVersion: sql`${accounts.tokenVersion} + 1`, updatedAt: now })
      .where(eq(accounts.id, id))
      .returning();
    await this.lookups?.barrier();
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

  async createToken(accountId: string, kind: AccountTokenKind, tokenHash: string, expiresAt: Date, clientAddress?: string): Promise<void> {
    await this.db.insert(accountTokens).values({ accountId, kind, tokenHash, expiresAt, clientAddress });
  }

  /**
   * Counts one code against an open MFA challenge with attempts left, atomically (parallel
   * guesses can't pass the cap): the one whose token hash is given, else the newest opened from
   * `clientAddress`. Undefined when there is none.
   */
  async claimChallengeAttempt(
    accountId: string,
    by: { tokenHash: string } | { clientAddress: string },
    now: Date,
    maxAttempts: number,
  ): Promise<{ id: string; attempts: number } | undefined> {
    const open = and(
      eq(accountTokens.accountId, accountId),
      eq(accountTokens.kind, 'mfa_challenge'),
      isNull(accountTokens.usedAt),
      gt(accountTokens.expiresAt, now),
      lt(accountTokens.attempts, maxAttempts),
    );
    const which =
      'tokenHash' in by
        ? eq(accountTokens.tokenHash, by.tokenHash)
        : eq(
            accountTokens.id,
            sql`(SELECT id FROM account_tokens WHERE account_id = ${accountId} AND kind = 'mfa_challenge' AND used_at IS NULL
                 AND expires_at > ${now.toISOString()}::timestamptz AND attempts < ${maxAttempts} AND client_address = ${by.clientAddress}
                 ORDER BY created_at DESC LIMIT 1)`,
          );
    const [row] = await this.db
      .update(accountTokens)
      .set({ attempts: sql`${accountTokens.attempts} + 1` })
      .where(and(open, which))
      .returning({ id: accountTokens.id, attempts: accountTokens.attempts });
    return row;
  }

  /** Gives a claimed attempt back (the code was never checked). */
  async unclaimChallengeAttempt(id: string): Promise<void> {
    await this.db.update(accountTokens).set({ attempts: sql`greatest(${accountTokens.attempts} - 1, 0)` }).where(eq(accountTokens.id, id));
  }

  /** Uses up one token (an MFA challenge that took too many wrong codes). */
  async closeToken(id: string, now: Date): Promise<void> {
    await this.db.update(accountTokens).set({ usedAt: now }).where(and(eq(accountTokens.id, id), isNull(accountTokens.usedAt)));
  }

  // ------------------------------------------------------------------ device tokens (sign-in/device-tokens.ts)
  findDevice: DeviceTokens<string>['find'] = (...args) => this.devices.find(...args);
  touchDevice: DeviceTokens<string>['touch'] = (...args) => this.devices.touch(...args);
  addDevice: DeviceTokens<string>['add'] = (...args) => this.devices.add(...args);

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

  /** A change of address to confirm: replaces any earlier one still open. */
  async createEmailChange(accountId: string, tokenHash: string, newEmail: string, expiresAt: Date, now: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(accountTokens)
        .set({ usedAt: now })
        .where(and(eq(accountTokens.accountId, accountId), eq(accountTokens.kind, 'email_change'), isNull(accountTokens.usedAt)));
      await tx.insert(accountTokens).values({ accountId, kind: 'email_change', tokenHash, expiresAt, newEmail });
    });
  }

  /** The address an open change would set, if any. */
  async pendingEmail(accountId: string, now: Date): Promise<string | undefined> {
    const [row] = await this.db
      .select({ newEmail: accountTokens.newEmail })
      .from(accountTokens)
      .where(and(eq(accountTokens.accountId, accountId), eq(accountTokens.kind, 'email_change'), isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, now)))
      .orderBy(desc(accountTokens.createdAt))
      .limit(1);
    return row?.newEmail ?? undefined;
  }

  /**
   * Uses an email_change token and makes its address the account's (verified: the link reached
   * it), in one transaction. 'taken': another account has the address now (nothing changes, the
   * link stays usable); undefined: no such open token.
   */
  async applyEmailChange(tokenHash: string, now: Date): Promise<{ account: AccountRow; previousEmail: string } | 'taken' | undefined> {
    return this.db
      .transaction(async (tx) => {
        const [token] = await tx
          .update(accountTokens)
          .set({ usedAt: now })
          .where(and(eq(accountTokens.kind, 'email_change'), eq(accountTokens.tokenHash, tokenHash), isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, now)))
          .returning({ accountId: accountTokens.accountId, newEmail: accountTokens.newEmail });
        if (!token?.newEmail) return undefined;
        const [before] = await tx.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, token.accountId)).for('update');
        if (!before) return undefined;
        const [account] = await tx
          .update(accounts)
          .set({ email: token.newEmail, emailNormalized: normalizeEmail(token.newEmail), emailVerifiedAt: now, updatedAt: now })
          .where(eq(accounts.id, token.accountId))
          .returning();
        return { account, previousEmail: before.email };
      })
      .then(async (result) => {
        if (result) await this.lookups?.barrier();
        return result;
      })
      .catch((err: { code?: string; cause?: { code?: string } }) => {
        // The unique index on the normalized address: someone else has it (rolled back as a whole).
        if ((err.code ?? err.cause?.code) === '23505') return 'taken' as const;
        throw err;
      });
  }

  /** The account holding a valid, unused token (without using it). */
  async findByOpenToken(kind: AccountTokenKind, tokenHash: string, now: Date): Promise<AccountRow | undefined> {
    const [row] = await this.db
      .select({ account: accounts })
      .from(accountTokens)
      .innerJoin(accounts, eq(accounts.id, accountTokens.accountId))
      .where(and(eq(accountTokens.kind, kind), eq(accountTokens.tokenHash, tokenHash), isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, now)))
      .limit(1);
    return row?.account;
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
