// The hosting module's face: what other modules and app.ts may use. Everything else in this
// folder is the module's own (npm run lint:deps fails on an import of it from outside).
// Its parts, each behind its own index.ts (lint:deps' part-internals): edge/ (the gateway, static
// files, traffic), deploy/ (zips, manifests, layouts, rules, the deployments' lifecycle), build/
// (builds from source and their logs), runtime/ (the hosted sites' processes); hosting.module.ts
// wires them, hosting.service.ts changes a site, hosting.views.ts shows one.
export { hostingPlugin, type HostingOptions } from './hosting.module';
export type { HostingService } from './hosting.service';
export type { BuildSettingsRow, DeploymentRow, SiteEnvRow } from './hosting.tables';
// app.ts: the server's front door (static sites answered before Fastify), and a runtime of a
// test's own.
export { FrontDoor } from './edge';
export type { Runtime } from './runtime';
// Its lifecycle section, for an archive made without a running platform (cli/project.ts).
export { hostingLifecycle } from './hosting.lifecycle';
// The usage report's bandwidth series over an account's projects.
export { bandwidthByBucket } from './traffic.repository';
