// The backup module's face: what other modules, app.ts and the CLI (cli/project.ts) may use.
// Everything else in this folder is the module's own (npm run lint:deps fails on an import of it
// from outside). A project to or from one archive: the export operation and the CLI's export and
// import.
export { backupPlugin } from './backup.handlers';
export { BackupError } from './backup.errors';
export { exportProject, type BackupDeps } from './export';
export { importProject, type ImportResult } from './import';
