// The database module's face: what other modules and app.ts may use. Everything else in this
// folder is the module's own (npm run lint:deps fails on an import of it from outside).
// Each project's own PostgreSQL schema and roles, the table editor and SQL box, the row API under
// access rules, and live changes.
export { databasePlugin } from './database.module';
export type { DatabaseContext } from './database.context';
export type { DbAccess, ProjectDatabaseRow } from './database.tables';
// Database sizes, for the billing screen and the usage report.
export { accountUsage, schemasBytes } from './database-size';
// What a project archive carries of the database (backup), until exports go through a registry
// each module answers for itself.
export { COLUMN_TYPES, describeTables, type ColumnInfo, type TableInfo } from './catalog';
export { checkIdentifier, quoteIdent } from './identifiers';
export { applyAccess } from './access-rules';
export { createTableSql, type ColumnSpec } from './ddl';
export { namesFor } from './provisioning';
export { attachTriggers } from './triggers';
