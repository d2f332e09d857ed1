// The domains module's face: what other modules and app.ts may use. Everything else in this
// folder is the module's own (npm run lint:deps fails on an import of it from outside).
// Custom domains of hosted sites: the API, the front of the gateway for custom Hosts, HTTPS.
export { domainsPlugin, type DomainsModuleOptions } from './domains.module';
export type { DomainsService } from './domains.service';
export type { SiteDomainRow } from './domains.tables';
// Its lifecycle section, for an archive made without a running platform (cli/project.ts).
export { domainsLifecycle } from './domains.lifecycle';
