// Writes the activity entry of every change a developer makes (activity.classification.ts says
// which calls change something). Before the handler: the entry-to-be goes into the request's
// AsyncLocalStorage (activity.context.ts), with the project the call names when it is the
// caller's. After it: a call that failed (4xx/5xx) writes nothing; one that succeeded and whose
// repository did not already write the entry in its own transaction gets it written here, awaited,
// before the answer is sent.
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { OperationId } from '../../generated/operations';
import { entryOf, runWithActivity, type PendingActivity } from './activity.context';
import { operationActivity } from './activity.classification';
import type { ActivityRepository } from './activity.repository';

declare module 'fastify' {
  interface FastifyRequest {
    /** The activity entry this call will leave if it succeeds (changes only). */
    activity?: PendingActivity;
  }
}

export function registerActivityRecorder(app: FastifyInstance, repo: ActivityRepository): void {
  // A callback hook: the rest of the request (the handler) runs inside runWithActivity.
  app.addHook('preHandler', (req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const operationId = req.routeOptions.config?.operationId as OperationId | undefined;
    const classification = operationId ? operationActivity[operationId] : undefined;
    if (!operationId || classification?.kind !== 'changes') return done();
    const account = req.account;
    const params = (req.params ?? {}) as Record<string, unknown>;
    // Looked up before the handler: a deleted project's name is gone afterwards. Not the
    // caller's: no project (the handler answers 404 and nothing is written anyway).
    const projectLookup =
      account && typeof params.projectId === 'string' ? app.projects.requireOwned(account.id, params.projectId).catch(() => undefined) : Promise.resolve(undefined);
    projectLookup.then((project) => {
      const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
      const pending: PendingActivity = {
        operationId,
        accountId: account?.id,
        projectId: project?.id ?? null,
        ip: req.ip,
        describe: (notes) => classification.summary({ body, params, account, project, notes }),
        notes: {},
        written: false,
      };
      req.activity = pending;
      runWithActivity(pending, done);
    }, done);
  });

  // A request that never got to onSend (its connection gone first) ends its context here.
  app.addHook('onResponse', (req, _reply, done) => {
    req.activity?.end?.();
    done();
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const pending = req.activity;
    // The handler is done: its context is no longer needed.
    pending?.end?.();
    if (!pending || pending.written || reply.statusCode >= 400) return payload;
    pending.written = true;
    const entry = entryOf(pending);
    // The change is done: a client told it failed would repeat it, so a failed insert is logged.
    if (entry) await repo.insert(entry).catch((err: Error) => req.log.error({ err }, 'activity: the entry of a completed change was not written'));
    return payload;
  });
}
