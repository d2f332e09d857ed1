// The contact form: its handler (rate-limited per address, the message kept by contact.repository.ts) and plugin.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { HandlerMap } from '../../platform/http/types';
import type { Deps } from '../../platform/deps';
import { Errors } from '../../platform/errors';
import { WINDOW_LIMITS } from '../../platform/limits';
import { insertContactMessage } from './contact.repository';

export function createContactHandlers(deps: Deps): HandlerMap {
  return {
    submitContactMessage: async (req) => {
      await deps.rateLimiter.hit({ key: `contact:ip:${req.ip}`, ...WINDOW_LIMITS.contactPerAddress });
      const name = req.body.name.trim();
      const message = req.body.message.trim();
      if (!name) throw Errors.validation('body/name must not be empty');
      if (!message) throw Errors.validation('body/message must not be empty');
      const id = await insertContactMessage(deps.db, { name, email: req.body.email.trim(), message, ip: req.ip });
      req.log.info({ contactMessageId: id, from: req.body.email }, 'contact message received');
      return { message: 'Message sent' };
    },
  };
}

export const contactPlugin = fp(
  async (app: FastifyInstance) => {
    app.contractParts.add('contact', { handlers: createContactHandlers(app.deps) });
  },
  { name: 'hostbase-contact', dependencies: ['hostbase-contract-parts'], decorators: { fastify: ['deps'] } },
);
