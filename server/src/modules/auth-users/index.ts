// The auth-users module's face: what other modules and app.ts may use. Everything else in this
// folder is the module's own (npm run lint:deps fails on an import of it from outside).
// A project's end users: sign-up, sign-in, sessions, settings, and the endUserBearer verifier.
export { authUsersPlugin } from './auth-users.module';
export type { AuthUsersService } from './auth-users.service';
export type { AuthSettingsRow, EndUserRow } from './auth-users.tables';
// Its expired tokens' clean-up, run by housekeeping.ts.
export { endUserTokenSweeps } from './auth-users.repository';
