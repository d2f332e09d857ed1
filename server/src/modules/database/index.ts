// The database module's face: what other modules and app.ts may use. Everything else in this
// folder is the module's own (npm run lint:deps fails on an import of it from outside).
// Each project's own PostgreSQL schema and roles, the table editor and SQL box, the row API under
// access rules, and live changes.
export { databasePlugin } from './database.module';
export type { DatabaseContext } from './database.context';
export type { DbAccess, ProjectDatabaseRow } from './database.tables';
// Database sizes, for the billing screen and the usage report.
export { accountUsage, schemasBytes } from './database-size';
// Its lifecycle section, for an archive made without a running platform (cli/project.ts).
export { databaseLifecycle } from './database.lifecycle';
