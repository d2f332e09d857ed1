// The plans of SPEC section 9 as numbers the platform enforces, and the list the pricing page
// and billing screen read. The spec gives the database, files and monthly active users of Hobby
// and Pro, and "Unlimited" for Enterprise. The rest are ours, chosen to be plain steps up from
// one plan to the next: projects (Hobby 3, Pro 20), hosting bandwidth per calendar month, bytes
// in and out of the account's sites (Hobby 100 GB, Pro 1 TB) and mailboxes across the account's
// projects (Hobby 5, Pro 50).
export type PlanName = 'hobby' | 'pro' | 'enterprise';

const GB = 1024 ** 3;

export interface PlanLimits {
  label: string;
  /** Rupees a month; null: priced per customer (Enterprise). */
  priceInr: number | null;
  projects: number;
  databaseBytes: number;
  storageBytes: number;
  monthlyActiveUsers: number;
  /** Bytes in and out of the account's hosted sites in a calendar month (UTC). */
  bandwidthBytes: number;
  mailboxes: number;
  /** Custom domains on the account's sites (SPEC 9: Pro's "custom domains"; Hobby has none). */
  customDomains: number;
}

export const PLANS: Record<PlanName, PlanLimits> = {
  hobby: {
    label: 'Hobby',
    priceInr: 99,
    projects: 3,
    databaseBytes: 1 * GB,
    storageBytes: 5 * GB,
    monthlyActiveUsers: 100_000,
    bandwidthBytes: 100 * GB,
    mailboxes: 5,
    customDomains: 0,
  },
  pro: {
    label: 'Pro',
    priceInr: 999,
    projects: 20,
    databaseBytes: 5 * GB,
    storageBytes: 10 * GB,
    monthlyActiveUsers: 1_000_000,
    bandwidthBytes: 1024 * GB,
    mailboxes: 50,
    customDomains: 10,
  },
  enterprise: {
    label: 'Enterprise',
    priceInr: null,
    projects: Infinity,
    databaseBytes: Infinity,
    storageBytes: Infinity,
    monthlyActiveUsers: Infinity,
    bandwidthBytes: Infinity,
    mailboxes: Infinity,
    customDomains: Infinity,
  },
};

export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

/** The limits a plan counts against, by the names the API and the events use. */
export type LimitName = 'projects' | 'storage' | 'database' | 'monthly_active_users' | 'bandwidth' | 'mailboxes';

/** Each limit's field in PlanLimits, how people read its name, and whether it counts bytes. */
export const LIMITS: Record<LimitName, { field: keyof Omit<PlanLimits, 'label' | 'priceInr' | 'customDomains'>; label: string; bytes: boolean; monthly: boolean }> = {
  projects: { field: 'projects', label: 'Projects', bytes: false, monthly: false },
  storage: { field: 'storageBytes', label: 'Storage', bytes: true, monthly: false },
  database: { field: 'databaseBytes', label: 'Database size', bytes: true, monthly: false },
  monthly_active_users: { field: 'monthlyActiveUsers', label: 'Monthly active users', bytes: false, monthly: true },
  bandwidth: { field: 'bandwidthBytes', label: 'Bandwidth', bytes: true, monthly: true },
  mailboxes: { field: 'mailboxes', label: 'Mailboxes', bytes: false, monthly: false },
};

export function isPlanName(plan: string): plan is PlanName {
  return plan in PLANS;
}

export function planLimits(plan: string): PlanLimits {
  return PLANS[isPlanName(plan) ? plan : 'hobby'];
}

/** A plan's allowance of one limit (Infinity: none). */
export function allowance(plan: string, limit: LimitName): number {
  return planLimits(plan)[LIMITS[limit].field];
}

/** A plan's limits as the API shows them (billing, the usage report): null is unlimited. */
export function limitsView(plan: string) {
  const l = planLimits(plan);
  const finite = (n: number) => (Number.isFinite(n) ? n : null);
  return {
    projects: finite(l.projects),
    database_bytes: finite(l.databaseBytes),
    storage_bytes: finite(l.storageBytes),
    monthly_active_users: finite(l.monthlyActiveUsers),
    bandwidth_bytes: finite(l.bandwidthBytes),
    mailboxes: finite(l.mailboxes),
  };
}
