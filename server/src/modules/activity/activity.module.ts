// Activity module: the account's activity log (written by the recorder for every change a
// developer makes) and each project's errors (heard on the account events channel), and the
// operations that list them. As a plugin it must load before the contract: its hooks wrap the
// contract's routes.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ActivityRepository } from './activity.repository';
import { ActivityService } from './activity.service';
import { createActivityHandlers } from './activity.handlers';
import { registerActivityRecorder } from './activity.recorder';
import { projectErrorOf } from './project-errors';

export const activityPlugin = fp(
  async (app: FastifyInstance) => {
    const repo = new ActivityRepository(app.deps.db, (accountId) => app.projects.list(accountId));
    registerActivityRecorder(app, repo);
    app.deps.events.on(async (event) => {
      const error = projectErrorOf(event);
      if (error) await repo.insertError(error);
    });
    app.contractParts.add('activity', { handlers: createActivityHandlers(new ActivityService(repo)) });
  },
  { name: 'hostbase-activity', dependencies: ['hostbase-contract-parts', 'hostbase-projects'], decorators: { fastify: ['deps'] } },
);
