// What an export or import runs on: the platform's database and object store, and the sections of
// a project's life (app.projects.lifecycles in a server; cli/project.ts builds its own).
import type { Database } from '../../db/client';
import type { Deps } from '../../platform/deps';
import type { ObjectStore } from '../../platform/object-store/object-store';
import { accountIdByEmail } from '../accounts';
import type { ProjectLifecycles } from '../projects';

export interface BackupDeps {
  database: Database;
  store: ObjectStore;
  lifecycles: ProjectLifecycles;
  /** The account an import gives the project to, named by its e-mail. */
  ownerByEmail(email: string): Promise<string | undefined>;
  /** This platform's version (package.json), recorded in the manifest. */
  version: string;
  /** A private folder for staging (DATA_DIR/backup). */
  tmpRoot: string;
}

export function backupDeps(deps: Pick<Deps, 'database' | 'db' | 'objectStore' | 'config'>, lifecycles: ProjectLifecycles, tmpRoot: string): BackupDeps {
  return {
    database: deps.database,
    store: deps.objectStore,
    lifecycles,
    ownerByEmail: (email) => accountIdByEmail(deps.db, email),
    version: deps.config.version,
    tmpRoot,
  };
}
