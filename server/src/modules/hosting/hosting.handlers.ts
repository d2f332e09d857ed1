// Thin handlers for the hosting operations. The zip upload is streamed (req.parts()) into memory
// (yauzl needs random access to read the central directory before trusting any entry, and the
// extraction reads it from memory anyway); only an upload bigger than IN_MEMORY_MAX spills to a
// temp file. Not writing and re-reading a 50 MB upload is a quarter of a deploy's disk traffic.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import type { HandlerMap } from '../../platform/http/types';
import { Errors } from '../../platform/errors';
import { currentAccount, ownedProject } from '../caller';
import type { ProjectsService } from '../projects';
import type { HostingService } from './hosting.service';
import type { HostingViews } from './hosting.views';
import { type SiteFiles, PROJECT_TYPES, IN_MEMORY_MAX, type InstantDeploys } from './deploy';
import { activityNote } from '../activity';
import type { BuildSettingsService, BuildLogStreams } from './build';
import { SSE_HEADERS } from '../../platform/http/live-streams';

/** What the hosting module's routes are answered with (hosting.module.ts builds them). */
export interface HostingParts {
  service: HostingService;
  views: HostingViews;
  files: SiteFiles;
  projects: ProjectsService;
  instant: InstantDeploys;
  buildSettings: BuildSettingsService;
  logStreams: BuildLogStreams;
}

export function createHostingHandlers(parts: HostingParts): HandlerMap {
  const { service, views, files, projects, instant, buildSettings, logStreams } = parts;
  return {
    // ---- instant redeploys (instant-deploy.ts) [hosting-rules]
    createManifestDeployment: async (req) => {
      const project = await ownedProject(req);
      const body = req.body as { type: string; files: Record<string, string> };
      const type = PROJECT_TYPES.find((t) => t.toLowerCase() === String(body.type).toLowerCase());
      if (!type) throw Errors.badRequest(`Unknown project type "${body.type}". Choose one of: ${PROJECT_TYPES.join(', ')}.`);
      activityNote('type', type);
      const { deploymentId, missing } = await instant.create(project, type, body.files);
      const n = missing.length;
      return { message: n ? `Upload the ${n} missing file${n === 1 ? '' : 's'}, then finish.` : 'Nothing to upload: finish to go live.', deployment_id: deploymentId, missing };
    },

    uploadDeploymentFiles: async (req) => {
      const project = await ownedProject(req);
      const dir = await files.tempDir('blobs');
      try {
        const { received, missing } = await instant.receive(project, req.params.deploymentId, req.parts({ limits: { files: 1000 } }) as AsyncIterable<{ type: string; filename?: string; file?: Readable }>, dir);
        return { message: `Received ${received.length} file${received.length === 1 ? '' : 's'}; ${missing.length} missing.`, received, missing };
      } finally {
        await fsp.rm(dir, { recursive: true, force: true });
      }
    },

    finishDeployment: async (req) => {
      const project = await ownedProject(req);
      const deployment = await instant.finish(project, req.params.deploymentId);
      return { message: 'Project deployed!', deployment: await views.view(project, deployment) };
    },
    // ---- [/hosting-rules]

    uploadSiteZip: async (req, reply) => {
      const project = await ownedProject(req);
      await service.assertStorageRoom(project); // a full account is refused before its upload is read
      const dir = await files.tempDir('upload');
      try {
        const fields: Record<string, string> = {};
        let zip: Buffer | string | undefined;
        for await (const part of req.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file' || zip !== undefined) {
              part.file.resume(); // not ours: drain it
              continue;
            }
            zip = await receive(part.file, path.join(dir, 'upload.zip'));
          } else {
            fields[part.fieldname] = String(part.value ?? '');
          }
        }
        const rawType = fields.type?.trim();
        if (!rawType) throw Errors.badRequest('Please select a project type.');
        // "auto": the platform reads the type from the files, as the CLI does without --type.
        const auto = rawType.toLowerCase() === 'auto';
        const chosen = auto ? undefined : PROJECT_TYPES.find((t) => t.toLowerCase() === rawType.toLowerCase());
        if (!auto && !chosen) throw Errors.badRequest(`Unknown project type "${rawType}". Choose one of: auto, ${PROJECT_TYPES.join(', ')}.`);
        if (zip === undefined || (Buffer.isBuffer(zip) ? zip.length : (await fsp.stat(zip)).size) === 0) throw Errors.badRequest('Please upload a zip file.');
        const type = chosen ?? (await service.detectType(zip));
        activityNote('type', type);
        const { deployment, started } = await service.deploy(project, type, zip);
        // Source code: the build goes on after this answer (follow it with streamDeploymentLog).
        if (started) reply.code(202);
        return { message: started ?? 'Project deployed!', deployment: await views.view(project, deployment), site_url: projects.siteUrlOf(project) };
      } finally {
        await fsp.rm(dir, { recursive: true, force: true });
      }
    },

    listDeployments: async (req) => views.history(await ownedProject(req)),

    activateDeployment: async (req) => {
      const project = await ownedProject(req);
      const deployment = await service.activate(project, req.params.deploymentId);
      return { message: 'Deployment is live', deployment: await views.view(project, deployment) };
    },

    getDeploymentLogs: async (req) => views.logs(await ownedProject(req), req.params.deploymentId),

    streamDeploymentLog: async (req, reply) => {
      const project = await ownedProject(req);
      const deploymentId = req.params.deploymentId;
      if (!(await logStreams.exists(project.id, deploymentId))) throw Errors.notFound('Deployment'); // before the stream opens
      if (req.method === 'HEAD') return reply.headers(SSE_HEADERS).send('');
      const out = logStreams.open(currentAccount(req).id, project.id, deploymentId);
      reply.raw.once('close', () => out.destroy());
      return reply.headers(SSE_HEADERS).send(out);
    },

    getBuildSettings: async (req) => buildSettings.get((await ownedProject(req)).id),

    setBuildSettings: async (req) => buildSettings.set((await ownedProject(req)).id, req.body),

    getContainerStats: async (req) => views.stats(await ownedProject(req)),

    getSiteTraffic: async (req) => views.trafficReport(await ownedProject(req)),

    listSites: async (req) => views.sites(await projects.list(currentAccount(req).id), (p) => projects.domainOf(p), (p) => projects.siteUrlOf(p)),

    listSiteEnv: async (req) => service.listEnv(await ownedProject(req)),

    setSiteEnv: async (req) => service.setEnv(await ownedProject(req), req.body.variables),

    unsetSiteEnv: async (req) => service.unsetEnv(await ownedProject(req), req.body.names),

    unpublishSite: async (req) => {
      await service.unpublish(await ownedProject(req));
      return { message: 'unpublished' };
    },

    deleteSite: async (req) => {
      await service.deleteSite(await ownedProject(req), req.body.confirm);
      return { message: 'deleted' };
    },
  };
}

/** The upload's bytes in memory, or the path of the file they spilled to past IN_MEMORY_MAX. */
async function receive(file: Readable, spillPath: string): Promise<Buffer | string> {
  const chunks: Buffer[] = [];
  let size = 0;
  let out: fs.WriteStream | undefined;
  let failed: Error | undefined;
  try {
    for await (const chunk of file as AsyncIterable<Buffer>) {
      if (failed) throw failed;
      if (out) {
        if (!out.write(chunk)) await once(out, 'drain');
        continue;
      }
      chunks.push(chunk);
      size += chunk.length;
      if (size > IN_MEMORY_MAX) {
        out = fs.createWriteStream(spillPath, { flags: 'wx' });
        out.on('error', (err) => (failed = err));
        for (const c of chunks.splice(0)) out.write(c);
      }
    }
  } catch (err) {
    out?.destroy();
    throw err;
  }
  if (!out) return Buffer.concat(chunks, size);
  const stream = out;
  await new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err || failed ? reject(err ?? failed) : resolve())));
  return spillPath;
}
