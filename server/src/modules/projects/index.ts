// The projects module's face: what other modules and app.ts may use. Everything else in this
// folder is the module's own (npm run lint:deps fails on an import of it from outside).
// Projects, their app keys and the verifiers that put a key's project on the request; other
// modules clean up after a deleted project through app.projects.onDelete.
export { projectsPlugin } from './projects.module';
export type { ProjectsService } from './projects.service';
export type { ProjectRow } from './projects.tables';
// An account's projects, some projects' owners and subdomains, on the caller's query handle (a transaction's, to read under a lock).
export { ownersOf, projectIdsOf, subdomainsOf } from './project-owners.repository';
