// Thin handlers keyed by operationId: console calls (bearer token, project by path, owned by the
// caller), share links and public URLs (no key: sharing.ts), app calls (the project's key, under
// the folder access rules unless it is the secret key alone), signed links and signed URLs. Files
// are answered as the developer sees them (with a share URL when shared) only to the console and
// the secret key alone.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HandlerMap } from '../../platform/http/types';
import { Errors } from '../../platform/errors';
import { appCaller, ownedProject } from '../caller';
import { sendObject, wantsAttachment } from './download';
import { isNotModified, rangeFor } from '../../platform/http/conditional';
import type { FormPart, StorageService } from './storage.service';
import { activityNote } from '../activity';
import { storageCaller, type StorageAccessService } from './storage-access';
import type { StorageObjectRow, StorageRuleRow } from './storage.tables';
import type { AppCaller } from '../caller';
import type { Sharing } from './sharing';
import type { SignedUrls } from './signed-urls';

export interface StorageHandlerParts {
  storage: StorageService;
  access: StorageAccessService;
  sharing: Sharing;
  signedUrls: SignedUrls;
}

type ShareRequest = FastifyRequest<{ Params: { segment: string; objectId: string }; Querystring: { download?: string } }>;

/**
 * Parser buffers of 256 KiB instead of the 16 KiB stream default: with 64 KiB socket reads, the
 * default paused the request and the file stream on every chunk. Measured with bench/storage.ts:
 * less server CPU per upload. Not 1 MiB: body chunks held that long outlived more scavenges and
 * waited for a full GC (bench/upload-memory.ts, 256 MiB on PGlite: peak ~6 MB lower at 256 KiB).
 */
const PARSER_BUFFER = 256 << 10;
const form = (req: FastifyRequest) => req.parts({ highWaterMark: PARSER_BUFFER, fileHwm: PARSER_BUFFER }) as AsyncIterable<FormPart>;

/** GET {bucket domain}/s3/object-storage/{segment}/{objectId}, under /api and at the root. */
export function shareLinkHandler({ storage, sharing }: Pick<StorageHandlerParts, 'storage' | 'sharing'>) {
  return async (req: ShareRequest, reply: FastifyReply) => {
    const row = await sharing.shared(req.params.segment, req.params.objectId);
    return sendObject(req, reply, storage.store, row, { attachment: wantsAttachment(req.query.download) });
  };
}

export function createStorageHandlers(parts: StorageHandlerParts): HandlerMap {
  const { storage, access, sharing, signedUrls } = parts;
  /** The developer (secret key alone) sees a shared file's URL; a rule-bound caller sees none. */
  const appFile = (app: AppCaller, row: StorageObjectRow) => (storageCaller(app).fullAccess ? storage.developerView(row) : storage.appView(row));
  /** Sharing is the developer's decision: from an app, the secret key alone. */
  const developerApp = (req: Parameters<typeof appCaller>[0]) => {
    const app = appCaller(req);
    if (!storageCaller(app).fullAccess) throw Errors.forbidden('Only the developer shares files: call with the secret key alone (from a server), or use the console');
    return app;
  };
  /** Served without a key: readable from the pages of the file's project's allowed origins (http/app-cors.ts). */
  const sendKeyless = (req: FastifyRequest<{ Querystring: { download?: string } }>, reply: FastifyReply, row: StorageObjectRow) => {
    req.authProjectId = row.projectId;
    return sendObject(req, reply, storage.store, row, { attachment: wantsAttachment(req.query.download) });
  };

  return {
    uploadObject: async (req) => {
      const row = await storage.upload(await ownedProject(req), form(req));
      activityNote('file', row.name);
      return { message: 'saved', file: storage.developerView(row) };
    },

    listObjects: async (req) => storage.list(await ownedProject(req), req.body?.page ?? 1),

    deleteObjects: async (req) => {
      const deleted = await storage.delete(await ownedProject(req), req.body.file_ids);
      activityNote('deleted', deleted);
      return { message: 'deleted', deleted };
    },

    downloadObject: shareLinkHandler(parts) as HandlerMap['downloadObject'],

    shareObject: async (req) => {
      const row = await sharing.share(await ownedProject(req), req.body.object_id);
      activityNote('file', row.name);
      return { message: 'shared', file: storage.developerView(row) };
    },

    unshareObject: async (req) => {
      const row = await sharing.unshare(await ownedProject(req), req.body.object_id);
      activityNote('file', row.name);
      return { message: 'unshared' };
    },

    createConsoleSignedUrl: async (req) => ({
      message: 'created',
      signed_url: await signedUrls.forDeveloper(await ownedProject(req), req.body.object_id, req.body.expires_in),
    }),

    listStorageRules: async (req) => {
      const rows = await access.rules(await ownedProject(req));
      return { rules: rows.map(ruleView) };
    },

    setStorageRule: async (req) => {
      const row = await access.setRule(await ownedProject(req), req.body.folder, req.body.access, req.body.public);
      return { message: 'saved', rule: ruleView(row) };
    },

    deleteStorageRule: async (req) => {
      await access.deleteRule(await ownedProject(req), req.body.folder);
      return { message: 'deleted' };
    },

    listSignedLinks: async (req) => ({ links: await access.links(await ownedProject(req), req.body?.object_id) }),

    createSignedLink: async (req) => {
      const link = await access.createLinkInConsole(await ownedProject(req), req.body.object_id, req.body.expires_in);
      activityNote('file', link.name ?? link.object_id);
      return { message: 'created', link };
    },

    revokeSignedLink: async (req) => {
      await access.revoke(await ownedProject(req), req.body.link_id);
      return { message: 'revoked' };
    },

    bucketUploadObject: async (req) => {
      const app = appCaller(req);
      return { message: 'saved', file: appFile(app, await access.upload(app, form(req))) };
    },

    bucketListObjects: async (req) => access.list(appCaller(req), req.query.page ?? 1, req.query.folder ?? ''),

    bucketDownloadObject: async (req, reply) => {
      const row = await access.readable(appCaller(req), req.params.objectId);
      return sendObject(req, reply, storage.store, row, { attachment: false });
    },

    bucketDeleteObject: async (req) => {
      await access.delete(appCaller(req), req.params.objectId);
      return { message: 'deleted' };
    },

    bucketShareObject: async (req) => {
      const app = developerApp(req);
      return { message: 'shared', file: storage.developerView(await sharing.share(app.project, req.params.objectId)) };
    },

    bucketUnshareObject: async (req) => {
      await sharing.unshare(developerApp(req).project, req.params.objectId);
      return { message: 'unshared' };
    },

    createSignedUrl: async (req) => ({ message: 'created', signed_url: await signedUrls.forApp(appCaller(req), req.params.objectId, req.body?.expires_in) }),

    createSignedUrls: async (req) => ({ signed_urls: await signedUrls.manyForApp(appCaller(req), req.body.object_ids, req.body.expires_in) }),

    downloadSignedUrl: async (req, reply) => sendKeyless(req, reply, await signedUrls.resolve(req.params.objectId, req.query.token)),

    downloadPublicObject: async (req, reply) => sendKeyless(req, reply, await sharing.publicFile(req.params.objectId)),

    createObjectSignedLink: async (req) => ({ message: 'created', link: await access.createLinkFor(appCaller(req), req.params.objectId, req.body.expires_in) }),

    revokeObjectSignedLink: async (req) => {
      await access.revokeFor(appCaller(req), req.params.linkId);
      return { message: 'revoked' };
    },

    downloadSignedObject: async (req, reply) => {
      const { link, file } = await access.signed(req.params.token);
      // Readable from the pages of the project's allowed origins (http/app-cors.ts).
      req.authProjectId = link.projectId;
      // An answer with bytes counts, before they go (and only while the link is still valid at
      // that moment): a 304 or a 416 sends none.
      const validators = { etag: `"${file.etag}"`, lastModified: file.updatedAt };
      const sendsBytes = !isNotModified(req.headers, validators) && rangeFor(req.headers, file.objectSize, validators).kind !== 'unsatisfiable';
      if (sendsBytes && !(await access.countDownload(link))) {
        // Revoked or expired since it was read: say which.
        await access.signed(req.params.token);
        throw Errors.notFound('Signed link');
      }
      return sendObject(req, reply, storage.store, file, { attachment: wantsAttachment(req.query.download) });
    },
  };
}

const ruleView = (r: StorageRuleRow) => ({ folder: r.folder, access: r.access, public: r.public, updated_at: r.updatedAt.toISOString() });
