// POST /api/project/{projectId}/export: the project's archive (export.ts, every section of
// app.projects.lifecycles) as a download. It is written to a private folder of this instance first
// (its size is then known and a failure is an error answer, not a cut stream), streamed, and
// removed when the stream closes; folders left by a killed process are swept at start (DATA_DIR
// belongs to one instance).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../platform/deps';
import { ownedProject } from '../caller';
import { Errors } from '../../platform/errors';
import type { HandlerMap } from '../../platform/http/types';
import { WINDOW_LIMITS } from '../../platform/limits';
import type { ProjectLifecycles } from '../projects';
import { BackupError } from './backup.errors';
import { backupDeps } from './backup.deps';
import { exportProject } from './export';

export function createBackupHandlers(deps: Deps, lifecycles: ProjectLifecycles, downloads: string): HandlerMap {
  const backup = backupDeps(deps, lifecycles, path.join(downloads, 'work'));
  return {
    exportProject: async (req, reply) => {
      const project = await ownedProject(req);
      await deps.rateLimiter.hit({ key: `project-export:account:${project.ownerId}`, ...WINDOW_LIMITS.projectExportPerAccount });
      await fsp.mkdir(downloads, { recursive: true, mode: 0o700 });
      const dir = await fsp.mkdtemp(path.join(downloads, 'export-'));
      const file = path.join(dir, 'project.tar.gz');
      try {
        await exportProject(backup, project.id, file);
      } catch (err) {
        await fsp.rm(dir, { recursive: true, force: true });
        if (err instanceof BackupError) throw Errors.conflict(err.message);
        throw err;
      }
      const { size } = await fsp.stat(file);
      const body = fs.createReadStream(file);
      body.on('close', () => void fsp.rm(dir, { recursive: true, force: true }));
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'application/gzip')
        .header('content-length', size)
        .header('content-disposition', `attachment; filename="${project.subdomain}-${day}.tar.gz"`)
        .header('cache-control', 'no-store')
        .send(body);
    },
  };
}

export const backupPlugin = fp(
  async (app: FastifyInstance) => {
    const downloads = path.join(app.deps.config.dataDir, 'backup', 'api');
    await fsp.rm(downloads, { recursive: true, force: true });
    app.contractParts.add('backup', { handlers: createBackupHandlers(app.deps, app.projects.lifecycles, downloads) });
  },
  // The sections an export iterates are read from app.projects.lifecycles when it runs.
  { name: 'hostbase-backup', dependencies: ['hostbase-contract-parts', 'hostbase-accounts', 'hostbase-projects'], decorators: { fastify: ['deps'] } },
);
