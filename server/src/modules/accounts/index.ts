// The accounts module's face: what other modules and app.ts may use. Everything else in this
// folder is the module's own (npm run lint:deps fails on an import of it from outside).
// Developer accounts: registration, sign-in (with two-factor), tokens, settings, and the
// bearerAuth verifier the console's operations rely on.
export { accountsPlugin } from './accounts.module';
export type { AccountsService } from './accounts.service';
export type { DeveloperTokens } from './developer-tokens';
export type { AccountRow } from './accounts.tables';
// An account's plan: read, locked for a limit's check-then-write, changed by a payment.
export { accountPlan, changeAccountPlan, lockAccountPlan } from './account-plans.repository';
// Its expired tokens' clean-up, run by housekeeping.ts.
export { accountTokenSweep } from './accounts.repository';
