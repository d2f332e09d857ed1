// The plans of SPEC section 9 as numbers the platform enforces.
export type PlanName = 'hobby' | 'pro' | 'enterprise';

const GB = 1024 ** 3;

export interface PlanLimits {
  label: string;
  priceInr: number | null;
  databaseBytes: number;
  storageBytes: number;
  monthlyActiveUsers: number;
}

export const PLANS: Record<PlanName, PlanLimits> = {
  hobby: { label: 'Hobby', priceInr: 99, databaseBytes: 1 * GB, storageBytes: 5 * GB, monthlyActiveUsers: 100_000 },
  pro: { label: 'Pro', priceInr: 999, databaseBytes: 5 * GB, storageBytes: 10 * GB, monthlyActiveUsers: 1_000_000 },
  enterprise: { label: 'Enterprise', priceInr: null, databaseBytes: Infinity, storageBytes: Infinity, monthlyActiveUsers: Infinity },
};

export function planLimits(plan: string): PlanLimits {
  return PLANS[(plan in PLANS ? plan : 'hobby') as PlanName];
}
