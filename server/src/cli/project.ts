// `npm run project -- export <projectId> --out file.tar.gz` and
// `npm run project -- import file.tar.gz --owner <email>`: a whole project to one archive and back
// (modules/backup), with the platform's own configuration (environment and .env, as the server).
// On PostgreSQL it runs beside running servers; on embedded PGlite stop the server first (its data
// directory belongs to one process).
import fsp from 'node:fs/promises';
import path from 'node:path';
import { loadConfig, type Config } from '../config';
import { openDatabase } from '../db/client';
import { createSecretBox, deriveKey } from '../platform/crypto';
import type { Deps } from '../platform/deps';
import { PRIVATE_UMASK, secureDataDir } from '../platform/data-dir';
import { loadEnvFile } from '../platform/env-file';
import { FsObjectStore } from '../platform/object-store/object-store.fs';
import { S3ObjectStore } from '../platform/object-store/object-store.s3';
import type { ObjectStore } from '../platform/object-store/object-store';
import { BackupError, backupDeps, exportProject, importProject } from '../modules/backup';
import { ProjectLifecycles, projectsLifecycle } from '../modules/projects';
import { endUsersLifecycle } from '../modules/end-users';
import { storageLifecycle } from '../modules/storage';
import { hostingLifecycle } from '../modules/hosting';
import { domainsLifecycle } from '../modules/domains';
import { mailLifecycle } from '../modules/mail';
import { databaseLifecycle } from '../modules/database';

const USAGE = `usage:
  npm run project -- export <projectId> --out <file.tar.gz>
  npm run project -- import <file.tar.gz> --owner <email of an account on this platform>`;

/** The store of this platform, without the start-up sweep a server does (a server may be running). */
async function openStore(config: Config): Promise<ObjectStore> {
  const root = path.join(config.dataDir, 'storage');
  if (config.s3) {
    const store = new S3ObjectStore({ ...config.s3, spoolDir: path.join(config.dataDir, 'backup', 's3-spool') });
    await store.ensureBucket();
    return store;
  }
  const store = new FsObjectStore({ root, soleWriter: false });
  await store.init();
  return store;
}

/**
 * The sections a server's modules register (app.projects.lifecycles), built here without a server:
 * their archive parts only (deletes need the running modules). test/backup/lifecycles.test.ts
 * checks that they are the server's.
 */
export function cliLifecycles(deps: Pick<Deps, 'config' | 'database' | 'db' | 'secrets' | 'objectStore'>): ProjectLifecycles {
  const lifecycles = new ProjectLifecycles();
  for (const section of [
    projectsLifecycle(deps),
    endUsersLifecycle(),
    storageLifecycle(deps),
    hostingLifecycle(deps),
    domainsLifecycle(deps),
    mailLifecycle(deps),
    databaseLifecycle(deps),
  ])
    lifecycles.register(section);
  return lifecycles;
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

export async function main(argv: string[]): Promise<number> {
  const [command, target] = argv;
  const out = option(argv, '--out');
  const owner = option(argv, '--owner');
  if (!target || (command === 'export' && !out) || (command === 'import' && !owner) || (command !== 'export' && command !== 'import')) {
    console.error(USAGE);
    return 2;
  }
  if (command === 'export') {
    const file = path.resolve(out!);
    const problem = await fsp.access(path.dirname(file)).then(
      () => fsp.access(file).then(() => `${file} exists: choose another name (an export never overwrites a file)`, () => undefined),
      () => `No folder ${path.dirname(file)} to write the archive in`,
    );
    if (problem) {
      console.error(problem);
      return 1;
    }
  }
  process.umask(PRIVATE_UMASK);
  loadEnvFile(path.resolve('.env'));
  const config = loadConfig();
  secureDataDir(config.dataDir);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite'), poolSize: 2 });
  try {
    const deps = { config, database, db: database.db, secrets: createSecretBox(deriveKey(config.jwtSecret, 'secret-box')), objectStore: await openStore(config) };
    const d = backupDeps(deps, cliLifecycles(deps), path.join(config.dataDir, 'backup'));
    if (command === 'export') {
      const file = path.resolve(out!);
      const r = await exportProject(d, target, file);
      for (const w of r.warnings) console.warn(w);
      const c = counted(r.manifest.counts);
      console.log(
        `Exported project ${target} to ${file} (${r.bytes} bytes, format ${r.manifest.version}): ${c.tables} tables with ${c.rows} rows, ${c.files} files, ` +
          `${c.end_users} end users, ${c.deployments} live deployment, ${c.mailboxes} mailboxes. It holds the project's keys and password hashes: keep it private.`,
      );
    } else {
      const r = await importProject(d, path.resolve(target), owner!);
      for (const w of r.warnings) console.warn(w);
      const c = counted(r.manifest.counts);
      console.log(
        `Imported project ${r.projectId} for ${owner}: ${c.tables} tables with ${c.rows} rows, ${c.files} files, ${c.end_users} end users, ` +
          `${c.deployments} live deployment, ${c.mailboxes} mailboxes. End users sign in again (sessions are not carried); mailboxes' messages live on the mail host.`,
      );
    }
    return 0;
  } catch (err) {
    if (err instanceof BackupError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  } finally {
    await database.close();
  }
}

/** The manifest's counts, 0 for what a section did not count. */
function counted(counts: Record<string, number>) {
  const n = (what: string) => counts[what] ?? 0;
  return { tables: n('tables'), rows: n('rows'), files: n('files'), end_users: n('end_users'), deployments: n('deployments'), mailboxes: n('mailboxes') };
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: Error) => {
      console.error(err);
      process.exit(1);
    },
  );
}
