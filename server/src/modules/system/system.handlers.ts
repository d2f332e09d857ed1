import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { HandlerMap } from '../../platform/http/types';
import type { Deps } from '../../platform/deps';

export function createSystemHandlers(deps: Deps): HandlerMap {
  const VERSION = deps.config.version;
  return {
    getHealth: async (_req, reply) => {
      const started = performance.now();
      try {
        await deps.database.query('SELECT 1');
        const latency_ms = Math.round((performance.now() - started) * 100) / 100;
        return { status: 'ok', version: VERSION, database: { status: 'up', driver: deps.database.driver, latency_ms } };
      } catch (err) {
        deps.log.error({ err }, 'health: database unreachable');
        return reply.code(503).send({ status: 'degraded', version: VERSION, database: { status: 'down', driver: deps.database.driver } });
      }
    },
  };
}

export const systemPlugin = fp(
  async (app: FastifyInstance) => {
    app.contractParts.add('system', { handlers: createSystemHandlers(app.deps) });
  },
  { name: 'hostbase-system', dependencies: ['hostbase-contract-parts'], decorators: { fastify: ['deps'] } },
);
