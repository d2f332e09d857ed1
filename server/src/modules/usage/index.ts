// The usage module's face: what other modules and app.ts may use. Everything else in this folder
// is the module's own (npm run lint:deps fails on an import of it from outside).
// API request counts, monthly active users and the dashboards' usage reports.
export { usagePlugin, type UsageOptions } from './usage.module';
export type { RequestCounter } from './request-counter';
// Told by end-users whenever it issues a session (monthly active users).
export { signInRecorder, type SignInRecorder } from './active-users';
