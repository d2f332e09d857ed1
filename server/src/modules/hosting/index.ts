// The hosting module's face: what other modules and app.ts may use. Everything else in this
// folder is the module's own (npm run lint:deps fails on an import of it from outside).
// The gateway, deploys, builds and the hosted sites' processes.
export { hostingPlugin, type HostingOptions } from './hosting.module';
export type { HostingService } from './hosting.service';
export type { BuildSettingsRow, DeploymentRow, SiteEnvRow } from './hosting.tables';
// app.ts: the server's front door (static sites answered before Fastify), and a runtime of a
// test's own.
export { FrontDoor } from './edge';
export type { Runtime } from './runtime';
// What a project archive carries of a site (backup), until exports go through a registry each
// module answers for itself.
export { blobKey, siteKeyPrefix } from './deploy';
export { envNameProblem } from './runtime';
export { pathProblem } from './deploy';
