// The backup module's face: what other modules, app.ts and the CLI (cli/project.ts) may use.
// Everything else in this folder is the module's own (npm run lint:deps fails on an import of it
// from outside). A project to or from one archive: the archive's format, its staging, the export's
// snapshot and the import's transaction; each module's rows are its lifecycle section's
// (app.projects.lifecycles).
export { backupPlugin } from './backup.handlers';
export { BackupError } from './backup.errors';
export { backupDeps, type BackupDeps } from './backup.deps';
export { exportProject, type ExportResult } from './export';
export { importProject, type ImportResult } from './import';
