// The plan's storage limit over everything an account stores: its files and its sites'
// deployments. Uploads (storage.service.ts) and deploys (hosting) charge bytes through charge(),
// which is StorageRepository.chargeWithinQuota: one locked check-then-write per account.
import { AppError, Errors } from '../../platform/errors';
import { planLimits } from '../plans';
import type { LookupCache } from '../../platform/lookup-cache';
import type { StorageRepository, Tx, Usage } from './storage.repository';
import { humanBytes } from '../../platform/human-bytes';

export interface QuotaView extends Usage {
  /** undefined: the plan has no limit. */
  quotaBytes?: number;
  planLabel: string;
}

/** Told the account's storage use after each charge (plans/plan-limits.ts notices at 80 % and 100 %). */
export type StorageNotice = (ownerId: string, plan: string, usedBytes: number) => Promise<void>;

export class StorageQuota {
  constructor(
    private readonly repo: Pick<StorageRepository, 'usage' | 'chargeWithinQuota'>,
    private readonly notice?: StorageNotice,
    /**
     * Where usage() keeps the figures between changes, dropped by the notices of
     * migrations/0019 (files, deployments' bytes, projects going) and of the account (its plan).
     * Never what a charge checks: that reads the database under the account's lock.
     */
    private readonly lookups?: Pick<LookupCache, 'get'>,
  ) {}

  /** Storage used by the owner across all projects (files and hosting apart), and the plan's allowance. */
  async usage(ownerId: string): Promise<QuotaView> {
    const usage = this.lookups
      ? ((await this.lookups.get(`storage:${ownerId}`, () => this.repo.usage(ownerId), () => [`storage:${ownerId}`, `account:${ownerId}`])) as Usage)
      : await this.repo.usage(ownerId);
    const limits = planLimits(usage.plan);
    return { ...usage, quotaBytes: Number.isFinite(limits.storageBytes) ? limits.storageBytes : undefined, planLabel: limits.label };
  }

  /** The 413 of a write that would pass the plan's limit; names the limit and what is in use. */
  exceeded(usage: Pick<QuotaView, 'planLabel' | 'quotaBytes' | 'usedBytes'>, needed?: { bytes: number; what: string }): AppError {
    const base = `Storage quota exceeded: the ${usage.planLabel} plan allows ${humanBytes(usage.quotaBytes ?? Infinity)} and ${humanBytes(usage.usedBytes)} is in use`;
    return Errors.payloadTooLarge(needed ? `${base}; ${needed.what} needs ${humanBytes(needed.bytes)}` : base);
  }

  /**
   * Charges `bytes` to the owner by running `write` inside the locked quota check. Throws the 413
   * of exceeded() when the plan's limit would be passed (nothing written); returns undefined when
   * `write` found its row gone.
   */
  async charge<T>(ownerId: string, bytes: number, write: (tx: Tx) => Promise<T | undefined>, what?: string): Promise<T | undefined> {
    const result = await this.repo.chargeWithinQuota(ownerId, bytes, (plan) => planLimits(plan).storageBytes, write);
    if (result.ok) {
      await this.notice?.(ownerId, result.usage.plan, result.usage.usedBytes + bytes);
      return result.value;
    }
    if (result.reason === 'gone') return undefined;
    const limits = planLimits(result.usage.plan);
    throw this.exceeded({ planLabel: limits.label, quotaBytes: limits.storageBytes, usedBytes: result.usage.usedBytes }, what ? { bytes, what } : undefined);
  }
}
