// The billing module's face: what other modules and app.ts may use. Everything else in this
// folder is the module's own (npm run lint:deps fails on an import of it from outside).
// Payments behind a PaymentProvider and an account's billing screen (the plans themselves and
// their limits are the plans module's).
export { billingPlugin } from './billing.module';
export type { BillingService } from './billing.service';
export type { PaymentOrderRow } from './billing.tables';
