// Thin handlers keyed by operationId: console calls (bearer token, project by path, owned by the
// caller), share links (public, segment + id), and app calls (bucket API key, its own project).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HandlerMap } from '../../http/types';
import { keyProject, ownedProject } from '../../http/auth';
import { sendObject, wantsAttachment } from './download';
import type { FormPart, StorageService } from './storage.service';
import { activityNote } from '../activity/activity.context';

type ShareRequest = FastifyRequest<{ Params: { segment: string; objectId: string }; Querystring: { download?: string } }>;

/**
 * Parser buffers of 1 MiB instead of the 16 KiB stream default: with 64 KiB socket reads, the
 * default paused the request and the file stream on every chunk. Bounded (a few MiB per upload
 * at most) and measured with bench/storage.ts: less server CPU per upload.
 */
const PARSER_BUFFER = 1 << 20;
const form = (req: FastifyRequest) => req.parts({ highWaterMark: PARSER_BUFFER, fileHwm: PARSER_BUFFER }) as AsyncIterable<FormPart>;

/** GET {bucket domain}/s3/object-storage/{segment}/{objectId}, under /api and at the root. */
export function shareLinkHandler(storage: StorageService) {
  return async (req: ShareRequest, reply: FastifyReply) => {
    const row = await storage.shared(req.params.segment, req.params.objectId);
    return sendObject(req, reply, storage.store, row, { attachment: wantsAttachment(req.query.download) });
  };
}

export function createStorageHandlers(storage: StorageService): HandlerMap {
  return {
    uploadObject: async (req) => {
      const row = await storage.upload(await ownedProject(req), form(req));
      activityNote('file', row.name);
      return { message: 'saved', file: storage.view(row) };
    },

    listObjects: async (req) => storage.list(await ownedProject(req), req.body?.page ?? 1),

    deleteObjects: async (req) => {
      const deleted = await storage.delete(await ownedProject(req), req.body.file_ids);
      activityNote('deleted', deleted);
      return { message: 'deleted', deleted };
    },

    downloadObject: shareLinkHandler(storage) as HandlerMap['downloadObject'],

    bucketUploadObject: async (req) => {
      const row = await storage.upload(keyProject(req), form(req));
      return { message: 'saved', file: storage.view(row) };
    },

    bucketListObjects: async (req) => storage.list(keyProject(req), req.query.page ?? 1),

    bucketDownloadObject: async (req, reply) => {
      const row = await storage.owned(keyProject(req), req.params.objectId);
      return sendObject(req, reply, storage.store, row, { attachment: false });
    },

    bucketDeleteObject: async (req) => {
      const project = keyProject(req);
      await storage.owned(project, req.params.objectId);
      await storage.delete(project, [req.params.objectId]);
      return { message: 'deleted' };
    },
  };
}
