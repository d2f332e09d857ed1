// The project's own rows in an archive: the project (its ids, name, subdomain) and its active app
// keys, plain in the archive and sealed again with the target's secret on import (their holders'
// apps keep working). The import gives the project to the account it names.
import { sha256 } from '../../platform/crypto';
import type { Deps } from '../../platform/deps';
import { LifecycleError, type ProjectLifecycle } from './project-lifecycle';
import { projectArchiveRows as rows } from './projects.repository';

const TABLES = {
  projects: {
    carried: ['id', 'name', 'description', 'subdomain', 'bucket_id', 'created_at', 'updated_at'],
    leftOut: { owner_id: 'the account the import names (--owner) owns it on the target' },
  },
  project_keys: {
    carried: ['kind', 'key_enc', 'created_at'],
    leftOut: {
      id: 'made anew on import',
      project_id: "the section's project",
      key_hash: 'computed from the key on import',
      revoked_at: 'only the active keys are carried',
    },
  },
} as const;

const KEY_KINDS = new Set(['bucket', 'authentication']);

export function projectsLifecycle(deps: Pick<Deps, 'secrets'>): ProjectLifecycle {
  const { secrets } = deps;
  return {
    name: 'projects',
    tables: TABLES,

    async export(out) {
      const project = await rows.project(out.tx, out.projectId, TABLES.projects.carried);
      if (!project) throw new LifecycleError(`No project with id ${out.projectId} on this platform`);
      const keys = await rows.activeKeys(out.tx, out.projectId, TABLES.project_keys.carried);
      out.put('project', project);
      out.put('keys', keys.map((k) => ({ kind: k.kind, key: secrets.open(String(k.key_enc)), created_at: k.created_at })));
    },

    async import(input) {
      const project = input.row('project');
      if (!project) throw new LifecycleError('the archive holds no project');
      if (project.id !== input.projectId) throw new LifecycleError("the archive's project and its manifest name different projects");
      const clashes = await rows.clashes(input.tx, { id: input.projectId, subdomain: String(project.subdomain), bucketId: String(project.bucket_id) });
      if (clashes.id) throw new LifecycleError(`project ${input.projectId} is already on this platform (delete it first to restore over it). Nothing was written.`);
      if (clashes.subdomain) throw new LifecycleError(`the subdomain ${String(project.subdomain)} is taken by another project. Nothing was written.`);
      if (clashes.bucketId) throw new LifecycleError("the project's bucket id is taken by another project. Nothing was written.");
      await rows.insertProject(input.tx, [...TABLES.projects.carried, 'owner_id'], { ...project, owner_id: input.ownerId });
      const keys = input.rows('keys').map((k) => {
        if (!KEY_KINDS.has(String(k.kind)) || typeof k.key !== 'string') throw new LifecycleError('a project key in the archive is malformed');
        return { project_id: input.projectId, kind: k.kind, key_hash: sha256(k.key), key_enc: secrets.seal(k.key), created_at: k.created_at };
      });
      await rows.insertKeys(input.tx, ['project_id', 'kind', 'key_hash', 'key_enc', 'created_at'], keys);
    },
  };
}
