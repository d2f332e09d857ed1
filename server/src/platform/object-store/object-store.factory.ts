// Chooses the storage backend from configuration: S3/MinIO when `s3` is set, else local disk.
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { ObjectStore } from './object-store';
import { FsObjectStore } from './object-store.fs';

export interface ObjectStoreConfig {
  dataDir: string;
  s3?: {
    endpoint: string;
    accessKey: string;
    secretKey: string;
    bucket: string;
    region?: string;
  };
  /** fs backend only: see FsObjectStoreOptions.fsync. */
  fsync?: boolean;
}

/** Builds the store and readies it (folders, or the bucket), so the first request cannot race set-up. */
export async function createObjectStore(config: ObjectStoreConfig): Promise<ObjectStore> {
  const root = path.join(config.dataDir, 'storage');
  if (config.s3) {
    // Bodies of unknown size are spooled on local disk before their single PUT. Spools of this
    // instance's previous process (killed mid-upload) are removed: DATA_DIR is one instance's.
    await fsp.rm(path.join(root, 's3-spool'), { recursive: true, force: true });
    // Loaded only here: the minio client and its dependencies weigh ~6 MB of heap that a
    // platform storing on disk (the default) never uses.
    const { S3ObjectStore } = await import('./object-store.s3');
    const store = new S3ObjectStore({ ...config.s3, spoolDir: path.join(root, 's3-spool') });
    await store.ensureBucket();
    return store;
  }
  // DATA_DIR belongs to one running instance: temp files found at start were left by a crash.
  const store = new FsObjectStore({ root, fsync: config.fsync, soleWriter: true });
  await store.init();
  return store;
}
