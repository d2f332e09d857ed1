// The plan's monthly bandwidth over an account's hosted sites. The gateway counts bytes in memory
// and saves them every few seconds (traffic.ts); after each save the accounts whose sites moved
// bytes (and those already over) are summed for the month from site_traffic. An account at or over
// its allowance has its sites answer 503 with a page that says why, from the next request on (so
// a site stops within one save interval of passing), until the month turns or the plan grows.
// The owner's console and API are on the platform's own host and keep working.
import type { Db } from '../../../db/client';
import type { Clock } from '../../../platform/clock';
import { allowance, planLimits, amountOf, monthStart, type PlanLimitGuard, type UsageRegistry } from '../../plans';
import { accountPlan } from '../../accounts';
import { ownersOf, projectIdsOf } from '../../projects';

export interface BandwidthBlock {
  accountId: string;
  plan: string;
  allowed: number;
}

export class BandwidthGuard {
  /** Project → the block of its over-limit account. */
  private readonly blockedProjects = new Map<string, BandwidthBlock>();
  private readonly blockedAccounts = new Set<string>();

  constructor(private readonly d: { db: Db; clock: Clock; limits: PlanLimitGuard; usage: Pick<UsageRegistry, 'count'>; log: { warn(obj: object, msg: string): void } }) {}

  /** The block of a site over its account's bandwidth, or undefined (a Map look-up: the hot path). */
  blocked(projectId: string): BandwidthBlock | undefined {
    return this.blockedProjects.get(projectId);
  }

  /** The page a blocked site answers with. */
  message(block: BandwidthBlock): string {
    return `This site has used its ${planLimits(block.plan).label} plan's ${amountOf('bandwidth', block.allowed)} of bandwidth for this month.`;
  }

  /** After a save of traffic counts: looks again at the accounts of these projects and at those blocked. */
  async check(projectIds: string[]): Promise<void> {
    try {
      const owners = await ownersOf(this.d.db, projectIds);
      const accountIds = new Set([...owners, ...this.blockedAccounts]);
      for (const accountId of accountIds) await this.checkAccount(accountId);
    } catch (err) {
      this.d.log.warn({ err }, 'bandwidth: could not check the accounts of this traffic');
    }
  }

  async checkAccount(accountId: string): Promise<void> {
    const account = await accountPlan(this.d.db, accountId);
    const plan = account ?? 'hobby';
    const allowed = allowance(plan, 'bandwidth');
    const used = Number.isFinite(allowed) ? await this.d.usage.count('bandwidth', this.d.db, { accountId }, monthStart(this.d.clock.now())) : 0;
    for (const [projectId, block] of this.blockedProjects) if (block.accountId === accountId) this.blockedProjects.delete(projectId);
    this.blockedAccounts.delete(accountId);
    if (account === undefined) return;
    if (used >= allowed) {
      for (const id of await projectIdsOf(this.d.db, accountId)) this.blockedProjects.set(id, { accountId, plan, allowed });
      this.blockedAccounts.add(accountId);
    }
    await this.d.limits.notice(accountId, 'bandwidth', { plan, used, allowed });
  }
}
