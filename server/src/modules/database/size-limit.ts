// The plan's database limit (SPEC section 9) over everything an account keeps in its projects'
// databases: the on-disk size (tables, indexes, TOAST) of every table in every project schema the
// account owns. Checked before each insert and update; a write while the account is at or over its
// limit is a 413 that names the limit. Reads and deletes always pass, so an account over its limit
// can still read and make room.
//
// The check is not a reservation: concurrent writes of one account may each pass and together go a
// little past the limit (one batch each). The limit is on what PostgreSQL reports on disk, which
// grows by pages, not by the bytes a row carries, so an exact charge is not possible anyway.
// Summing the size of every table costs a file lookup per table, so a reading well under the limit
// (below REUSE_BELOW of it) is reused for REUSE_MS: near or past the limit, every write reads afresh.
import type { Database } from '../../db/client';
import { Errors } from '../../platform/errors';
import { planLimits, planLimitGuard } from '../plans';
import { humanBytes } from '../../platform/human-bytes';
import type { DatabaseContext } from './database.context';
import { accountUsage } from './database-size';

export interface DatabaseUsage {
  plan: string;
  usedBytes: number;
}

const REUSE_MS = 2000;
const REUSE_BELOW = 0.9;
const REMEMBERED_ACCOUNTS = 10_000;

export class DatabaseSizeLimit {
  /** The plan's limit in bytes (Infinity: none). Replaceable so tests can use a small limit. */
  limitFor: (plan: string) => number = (plan) => planLimits(plan).databaseBytes;
  /** How long a reading well under the limit is reused (0: read before every write). */
  reuseMs = REUSE_MS;
  private readonly readings = new Map<string, { at: number; usage: DatabaseUsage }>();

  constructor(
    private readonly database: Database,
    /** quota_passed at 80 % and 100 % of the plan's database size (plans/plan-limits.ts). */
    private readonly notice?: (accountId: string, plan: string, usedBytes: number) => Promise<void>,
  ) {}

  /** Counted as the console's table list counts it (database-size.ts), so shown and enforced agree. */
  usage(accountId: string): Promise<DatabaseUsage> {
    return accountUsage(this.database, accountId);
  }

  /** Throws the 413 when the account is at or over its plan's database limit. */
  async checkWrite(accountId: string): Promise<void> {
    const recent = this.readings.get(accountId);
    if (recent && Date.now() - recent.at < this.reuseMs && recent.usage.usedBytes < REUSE_BELOW * this.limitFor(recent.usage.plan)) return;
    const usage = await this.usage(accountId);
    if (this.readings.size >= REMEMBERED_ACCOUNTS) this.readings.clear();
    this.readings.set(accountId, { at: Date.now(), usage });
    const limit = this.limitFor(usage.plan);
    if (this.notice && usage.usedBytes >= 0.8 * limit) await this.notice(accountId, usage.plan, usage.usedBytes);
    if (usage.usedBytes < limit) return;
    throw Errors.payloadTooLarge(
      `Database size limit reached: the ${planLimits(usage.plan).label} plan allows ${humanBytes(limit)} (this account uses ${humanBytes(usage.usedBytes)}). Delete rows or tables, or upgrade the plan.`,
    );
  }
}

// One limit per database module (the app's projectDatabase context): the row API uses it, and a
// test reaches the same one through the context to set a small limit.
const limits = new WeakMap<DatabaseContext, DatabaseSizeLimit>();

export function databaseSizeLimit(ctx: DatabaseContext): DatabaseSizeLimit {
  let limit = limits.get(ctx);
  if (!limit) limits.set(ctx, (limit = new DatabaseSizeLimit(ctx.deps.database, planLimitGuard(ctx.deps).noticeOf('database'))));
  return limit;
}
