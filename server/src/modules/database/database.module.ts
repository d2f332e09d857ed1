// The project database: each project's own PostgreSQL schema and roles, the console's
// table editor and SQL box, the apps' row API under access rules, and live changes.
// As a plugin: decorates app.projectDatabase; its lifecycle section carries a project's schema in
// archives and drops its schema and roles with the project (database.lifecycle.ts).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../platform/deps';
import { DatabaseContext } from './database.context';
import { createSchemaHandlers } from './schema.handlers';
import { createRowsHandlers } from './rows.handlers';
import { createChangesHandlers } from './changes.handlers';
import { ChangesHub } from './changes';
import { databaseLifecycle } from './database.lifecycle';
import { projectDatabaseRows } from './database.repository';
import { schemasBytes } from './database-size';
import { usageRegistry } from '../plans';

export function createDatabaseModule(deps: Deps) {
  // The usage registry's database bytes (billing, the usage report): the projects' schemas on disk.
  usageRegistry(deps).register('database', async (q, projectIds) => {
    const schemas = await projectDatabaseRows.schemaNames(q, projectIds);
    return schemas.length ? schemasBytes(deps.database, schemas) : 0;
  });
  const ctx = new DatabaseContext(deps);
  const changes = new ChangesHub(ctx, deps.log);
  return {
    ctx,
    changes,
    handlers: { ...createSchemaHandlers(ctx), ...createRowsHandlers(ctx), ...createChangesHandlers(ctx, changes) },
  };
}

export const databasePlugin = fp(
  async (app: FastifyInstance) => {
    const database = createDatabaseModule(app.deps);
    app.decorate('projectDatabase', database.ctx);
    app.decorate('projectDatabaseChanges', database.changes);
    app.projects.lifecycles.register(databaseLifecycle(app.deps));
    app.contractParts.add('database', database);
    // Live-change streams end before the server closes (it waits for open responses), and the
    // instance stops listening once the app is closed.
    app.addHook('preClose', async () => database.changes.endStreams());
    app.addHook('onClose', async () => database.changes.close());
  },
  { name: 'hostbase-database', dependencies: ['hostbase-contract-parts', 'hostbase-projects', 'hostbase-end-users'], decorators: { fastify: ['deps'] } },
);

declare module 'fastify' {
  interface FastifyInstance {
    projectDatabase: DatabaseContext;
    /** This instance's live-change streams (changes.ts). */
    projectDatabaseChanges: ChangesHub;
  }
}
