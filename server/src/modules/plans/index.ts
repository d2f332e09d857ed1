// The plans module's face: what other modules may use. Everything else in this folder is the
// module's own (npm run lint:deps fails on an import of it from outside).
// The plans and their limits, the app's one guard that enforces them (and sends the quota
// notices), and the registry of the counts the limits count. Below every module that has a limit: none of them
// is imported here.
export { LIMITS, PLANS, PLAN_NAMES, allowance, limitsView, planLimits, type LimitName, type PlanLimits, type PlanName } from './plans';
export { amountOf, monthStart, planLimitGuard, type PlanLimitGuard } from './plan-limits';
// What each counted limit counts: every module registers the count of its own rows.
export { usageRegistry, type CountedLimit, type Counter, type UsageRegistry, type UsageScope } from './usage-registry';
