// The projects module's face: what other modules and app.ts may use. Everything else in this
// folder is the module's own (npm run lint:deps fails on an import of it from outside).
// Projects, their app keys and the verifiers that put a key's project on the request; the
// lifecycle registry (app.projects.lifecycles) where every module that keeps a project's rows or
// objects registers how they are exported, imported and deleted.
export { projectsPlugin } from './projects.module';
export {
  LifecycleError, ProjectLifecycles, requireUuid,
  type ArchiveRow, type CarriedTable, type ProjectLifecycle, type SectionReader, type SectionWriter,
} from './project-lifecycle';
// The projects section itself, for an archive made without a running platform (cli/project.ts).
export { projectsLifecycle } from './projects.lifecycle';
export type { ProjectsService } from './projects.service';
export type { ProjectRow } from './projects.tables';
// An account's projects, some projects' owners and subdomains, on the caller's query handle (a transaction's, to read under a lock).
export { ownersOf, projectIdsOf, subdomainsOf } from './project-owners.repository';
