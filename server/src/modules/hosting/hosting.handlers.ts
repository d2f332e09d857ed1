// Thin handlers for the hosting operations. The zip upload is streamed (req.parts()) to a temp
// file: yauzl needs random access to read the central directory before trusting any entry.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { HandlerMap } from '../../http/types';
import { Errors } from '../../http/errors';
import { currentAccount } from '../accounts/accounts.handlers';
import type { ProjectsService } from '../projects/projects.service';
import type { HostingService } from './hosting.service';
import type { SiteFiles } from './site-files';
import { PROJECT_TYPES } from './site-layout';

export function createHostingHandlers(service: HostingService, files: SiteFiles, projects: () => ProjectsService): HandlerMap {
  const owned = (req: FastifyRequest, projectId: string) => projects().requireOwned(currentAccount(req).id, projectId);

  return {
    uploadSiteZip: async (req) => {
      const project = await owned(req, req.params.projectId);
      const dir = await files.tempDir('upload');
      try {
        const fields: Record<string, string> = {};
        let zipPath: string | undefined;
        for await (const part of req.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file' || zipPath) {
              part.file.resume(); // not ours: drain it
              continue;
            }
            zipPath = path.join(dir, 'upload.zip');
            await pipeline(part.file, fs.createWriteStream(zipPath));
          } else {
            fields[part.fieldname] = String(part.value ?? '');
          }
        }
        const rawType = fields.type?.trim();
        if (!rawType) throw Errors.badRequest('Please select a project type.');
        const type = PROJECT_TYPES.find((t) => t.toLowerCase() === rawType.toLowerCase());
        if (!type) throw Errors.badRequest(`Unknown project type "${rawType}". Choose one of: ${PROJECT_TYPES.join(', ')}.`);
        if (!zipPath || (await fsp.stat(zipPath)).size === 0) throw Errors.badRequest('Please upload a zip file.');
        const deployment = await service.deploy(project, type, zipPath);
        return { message: 'Project deployed!', deployment: await service.view(project, deployment) };
      } finally {
        await fsp.rm(dir, { recursive: true, force: true });
      }
    },

    listDeployments: async (req) => service.history(await owned(req, req.params.projectId)),

    activateDeployment: async (req) => {
      const project = await owned(req, req.params.projectId);
      const deployment = await service.activate(project, req.params.deploymentId);
      return { message: 'Deployment is live', deployment: await service.view(project, deployment) };
    },

    getDeploymentLogs: async (req) => service.logs(await owned(req, req.params.projectId), req.params.deploymentId),

    getContainerStats: async (req) => service.stats(await owned(req, req.params.projectId)),

    getSiteTraffic: async (req) => service.trafficReport(await owned(req, req.params.projectId)),

    listSites: async (req) => service.sites(currentAccount(req).id, (p) => projects().domainOf(p)),
  };
}
