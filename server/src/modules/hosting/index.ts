// The hosting module's face: what other modules and app.ts may use. Everything else in this
// folder is the module's own (npm run lint:deps fails on an import of it from outside).
// The gateway, deploys, builds and the hosted sites' processes.
export { hostingPlugin, type HostingOptions } from './hosting.module';
export type { HostingService } from './hosting.service';
export type { BuildSettingsRow, DeploymentRow, SiteEnvRow } from './hosting.tables';
// app.ts: the server's front door (static sites answered before Fastify), and a runtime of a
// test's own.
export { FrontDoor } from './front-door';
export type { Runtime } from './runtime';
// Its lifecycle section, for an archive made without a running platform (cli/project.ts).
export { hostingLifecycle } from './hosting.lifecycle';
// The usage report's bandwidth series over an account's projects.
export { bandwidthByBucket } from './traffic.repository';
