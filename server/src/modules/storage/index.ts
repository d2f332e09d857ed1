// The storage module's face: what other modules and app.ts may use. Everything else in this
// folder is the module's own (npm run lint:deps fails on an import of it from outside).
// A project's stored files and the one storage accounting of an account (files and deployments).
export { storagePlugin } from './storage.module';
export type { StorageService } from './storage.service';
export type { StorageObjectRow } from './storage.tables';
// An account's stored bytes (billing, usage) and the quota deployments are charged to (hosting).
export { storageFigures, storageQuota, type StorageFigures } from './storage-figures';
export type { StorageQuota } from './quota';
// Its lifecycle section, for an archive made without a running platform (cli/project.ts).
export { storageLifecycle } from './storage.lifecycle';
