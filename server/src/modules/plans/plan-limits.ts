// The plan limits that count things (projects, mailboxes, monthly active end users) enforced at
// the moment one would be passed, and the quota notices of every limit. A guarded write runs in a
// transaction that first locks the owner's account row, as storage charges do (storage.repository
// chargeWithinQuota; the lock is the accounts module's, lockAccountPlan): concurrent writers of one account take turns at the check-then-write, so
// exactly the allowed number get through. Another account's writers never wait on it.
import type { Db } from '../../db/client';
import type { AccountEvents } from '../../platform/account-events';
import type { Clock } from '../../platform/clock';
import { AppError, Errors } from '../../platform/errors';
import { LIMITS, allowance, planLimits, type LimitName } from './plans';
import { lockAccountPlan } from '../accounts';
import { humanBytes } from '../../platform/human-bytes';
import { recordNotice } from './plans.repository';
import { usageRegistry, type CountedLimit } from './usage-registry';

/** A drizzle transaction (a PgTransaction is a PgDatabase). */
export type Tx = Db;

export interface LimitUse {
  plan: string;
  used: number;
  allowed: number;
}

export interface PlanLimitGuardDeps {
  db: Db;
  events: AccountEvents;
  clock: Clock;
}

/** A figure of a limit as people read it: "3 projects", "100 GiB". */
export function amountOf(limit: LimitName, n: number): string {
  if (!Number.isFinite(n)) return 'unlimited';
  if (LIMITS[limit].bytes) return humanBytes(n);
  const words: Partial<Record<LimitName, string>> = { projects: 'projects', mailboxes: 'mailboxes', monthly_active_users: 'monthly active users' };
  return `${n.toLocaleString('en-US')} ${words[limit] ?? ''}`.trim();
}

/** The 403 of a call that would pass a limit: names the limit and the plan. */
export function limitExceeded(limit: LimitName, plan: string, allowed: number, extra = ''): AppError {
  const per = LIMITS[limit].monthly && limit === 'bandwidth' ? ' a month' : '';
  return Errors.forbidden(`Your ${planLimits(plan).label} plan allows ${amountOf(limit, allowed)}${per}${extra}. Upgrade the plan in Settings → Billing.`);
}

/** The calendar month (UTC) of a date: '2026-11'. */
export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

export function monthStart(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
}

export class PlanLimitGuard {
  /** Notices this instance knows were sent: a limit kept above 80 % costs no statement per write. */
  private readonly sent = new Set<string>();

  constructor(private readonly d: PlanLimitGuardDeps) {}

  /**
   * Runs `write` if the account's count of `limit` (what `count` finds, inside the locked
   * transaction) plus `adding` stays within the plan; else throws limitExceeded and writes nothing.
   * `adding` may be worked out in the transaction (a sign-in of a user already active this month
   * adds 0). Returns what `write` returned; undefined from `write` (its row refused) charges nothing.
   */
  async within<T>(
    accountId: string,
    limit: LimitName,
    count: (tx: Tx) => Promise<number>,
    write: (tx: Tx) => Promise<T | undefined>,
    adding: number | ((tx: Tx) => Promise<number>) = 1,
    projectId?: string,
  ): Promise<T | undefined> {
    const result = await this.d.db.transaction(async (tx) => {
      const plan = (await lockAccountPlan(tx as unknown as Tx, accountId)) ?? 'hobby';
      const allowed = allowance(plan, limit);
      const add = typeof adding === 'number' ? adding : await adding(tx as unknown as Tx);
      const used = add > 0 && Number.isFinite(allowed) ? await count(tx as unknown as Tx) : 0;
      if (add > 0 && used + add > allowed) return { ok: false as const, plan, allowed };
      const value = await write(tx as unknown as Tx);
      return { ok: true as const, value, use: { plan, used: used + (value === undefined ? 0 : add), allowed }, counted: add > 0 && value !== undefined };
    });
    if (!result.ok) throw limitExceeded(limit, result.plan, result.allowed);
    if (result.counted) await this.notice(accountId, limit, result.use, projectId);
    return result.value;
  }

  /**
   * The count `within` takes for a limit: the usage registry's, of the account's projects, read
   * with the guarded transaction's handle.
   */
  counted(limit: CountedLimit, accountId: string, since?: Date): (tx: Tx) => Promise<number> {
    return (tx) => usageRegistry(this.d).count(limit, tx, { accountId }, since);
  }

  /** notice() for a limit whose use another module measures (storage, database): (account, plan, used). */
  noticeOf(limit: LimitName) {
    return (accountId: string, plan: string, used: number) => this.notice(accountId, limit, { plan, used, allowed: allowance(plan, limit) });
  }

  /**
   * Tells the account's listeners (quota_passed) when a limit's use has passed 80 % or reached
   * 100 %: once per limit, account, plan and period (the month for monthly limits), whichever
   * instance sees it first (the notice's row decides). A jump past both says 100 only.
   */
  async notice(accountId: string, limit: LimitName, use: LimitUse, projectId?: string): Promise<void> {
    if (!Number.isFinite(use.allowed) || use.allowed <= 0) return;
    const ratio = use.used / use.allowed;
    if (ratio < 0.8) return;
    const period = LIMITS[limit].monthly ? monthOf(this.d.clock.now()) : 'always';
    const reached = ([100, 80] as const).filter((p) => ratio * 100 >= p);
    const fresh: (80 | 100)[] = [];
    for (const percent of reached) {
      const key = `${accountId}|${limit}|${period}|${percent}|${use.plan}`;
      if (this.sent.has(key)) continue;
      if (this.sent.size >= 10_000) this.sent.clear();
      this.sent.add(key);
      if (await recordNotice(this.d.db, { accountId, limitName: limit, period, percent, plan: use.plan })) fresh.push(percent);
    }
    const percent = fresh.includes(100) ? 100 : fresh.includes(80) ? 80 : undefined;
    if (percent === undefined) return;
    const label = planLimits(use.plan).label;
    const what = LIMITS[limit].label;
    const message =
      percent === 100
        ? `${what}: your ${label} plan's limit of ${amountOf(limit, use.allowed)} is reached.`
        : `${what}: ${Math.floor(ratio * 100)} % of your ${label} plan's ${amountOf(limit, use.allowed)} is used.`;
    await this.d.events.emit({ type: 'quota_passed', accountId, projectId, limit: what, plan: label, percent, message });
  }
}


// One guard per app (per Deps): the notices it knows were sent are the whole app's, whichever
// module passed the limit.
const guards = new WeakMap<PlanLimitGuardDeps, PlanLimitGuard>();

/** The app's plan limit guard, made on first use: every module takes this one rather than its own. */
export function planLimitGuard(deps: PlanLimitGuardDeps): PlanLimitGuard {
  let guard = guards.get(deps);
  if (!guard) guards.set(deps, (guard = new PlanLimitGuard(deps)));
  return guard;
}
