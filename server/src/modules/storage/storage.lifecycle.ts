// A project's files in an archive: each file's row (its folder and its owner, the end user who
// uploaded it, who keeps their id) and its bytes, and the folder rules that decide who reads and
// writes them with an app key. On delete, the files' bytes go (their rows go with the project).
import type { Deps } from '../../platform/deps';
import { requireUuid, type ProjectLifecycle } from '../projects';
import { storageArchiveRows as rows } from './storage.repository';
import { objectKey, projectPrefix } from './storage.service';

const TABLES = {
  storage_objects: {
    carried: ['object_id', 'name', 'object_type', 'object_size', 'etag', 'share_segment', 'folder', 'owner_id', 'created_at', 'updated_at'],
    leftOut: { project_id: "the section's project", storage_key: "where the target keeps the bytes: made from the project's and the file's ids" },
  },
  storage_rules: {
    carried: ['folder', 'access', 'public', 'updated_at'],
    leftOut: { project_id: "the section's project" },
  },
  storage_signed_links: {
    carried: [],
    leftOut: "signed links are this platform's: their URLs name its address, and only their hashes are kept; made again on the target",
  },
} as const;

export function storageLifecycle(deps: Pick<Deps, 'objectStore'>): ProjectLifecycle {
  const store = deps.objectStore;
  return {
    name: 'storage',
    // A file's owner is an end user.
    after: ['projects', 'auth-users'],
    tables: TABLES,

    async export(out) {
      const files = await rows.files(out.tx, out.projectId, [...TABLES.storage_objects.carried, 'storage_key']);
      out.put('files', files.map(({ storage_key: key, ...file }) => ({ ...file, member: out.object(String(key)) })));
      out.put('rules', await rows.rules(out.tx, out.projectId, TABLES.storage_rules.carried));
      out.count('files', files.length);
    },

    async import(input) {
      const files = input.rows('files').map((f) => {
        const key = objectKey(input.projectId, requireUuid(f.object_id, 'a file\'s object_id'));
        input.storeObject(f.member, key, String(f.object_type));
        return { ...f, project_id: input.projectId, storage_key: key };
      });
      await rows.insertFiles(input.tx, ['project_id', 'storage_key', ...TABLES.storage_objects.carried], files);
      const rules = input.rows('rules').map((r) => ({ ...r, project_id: input.projectId }));
      await rows.insertRules(input.tx, ['project_id', ...TABLES.storage_rules.carried], rules);
    },

    async delete(project) {
      await store.deletePrefix(projectPrefix(project.id));
    },
  };
}
