// The end-users module's face: what other modules and app.ts may use. Everything else in this
// folder is the module's own (npm run lint:deps fails on an import of it from outside).
// A project's end users: sign-up, sign-in, sessions, settings, and the endUserBearer verifier.
export { endUsersPlugin } from './end-users.module';
export type { EndUsersService } from './end-users.service';
export type { AuthSettingsRow, EndUserRow } from './end-users.tables';
// Its expired tokens' clean-up, run by housekeeping.ts.
export { endUserTokenSweeps } from './end-users.repository';
// Its lifecycle section, for an archive made without a running platform (cli/project.ts).
export { endUsersLifecycle } from './end-users.lifecycle';
