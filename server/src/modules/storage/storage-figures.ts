// What other modules may know of an account's storage, built here so that no other module builds
// storage's repository: the figures (billing's screen, the usage report) and the quota a
// deployment's bytes are charged to (hosting), both through the one storage accounting
// (storage.repository.ts).
import type { Db } from '../../db/client';
import type { LookupCache } from '../../platform/lookup-cache';
import { StorageRepository, type Usage } from './storage.repository';
import { StorageQuota, type StorageNotice } from './quota';

export interface StorageFigures {
  /** The owner's plan and the bytes stored across all of the owner's projects: files and sites. */
  usage(ownerId: string): Promise<Usage>;
  /** The bytes stored by an account or by one of its projects. */
  storedBytes(scope: { accountId: string } | { projectId: string }): Promise<number>;
}

export function storageFigures(db: Db): StorageFigures {
  return new StorageRepository(db);
}

/** The storage quota with its notices: deployments are charged by storage's own mechanism. */
export function storageQuota(deps: { db: Db; lookups?: Pick<LookupCache, 'barrier'> }, notice?: StorageNotice): StorageQuota {
  return new StorageQuota(new StorageRepository(deps.db, deps.lookups), notice);
}
