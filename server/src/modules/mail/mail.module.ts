// Hosted mail module, the API half (the mail servers are scripts/mail/): service + handlers, and
// its lifecycle section (a project's domain and mailboxes in archives: mail.lifecycle.ts; they go
// with the project by ON DELETE CASCADE, so it has no delete).
// As a plugin: decorates app.mail.
import type { FastifyInstance } from 'fastify';
import { planLimitGuard, usageRegistry } from '../plans';
import fp from 'fastify-plugin';
import type { Deps } from '../../platform/deps';
import { writeDkimKeys } from './dkim-export';
import { createDnsLookup, type DnsLookup } from './dns-records';
import { MailRepository } from './mail.repository';
import { MailService } from './mail.service';
import { createMailHandlers } from './mail.handlers';
import { mailLifecycle } from './mail.lifecycle';

export function createMailModule(deps: Deps, options: { dns?: DnsLookup } = {}) {
  const { mailDkimDir, mailDkimPidFile } = deps.config;
  // With a mail host on this machine (MAIL_DKIM_DIR), its OpenDKIM gets the verified domains' keys.
  const exportKeys = mailDkimDir
    ? async () => writeDkimKeys(await service.verifiedDkimKeys(), { dir: mailDkimDir, pidFile: mailDkimPidFile })
    : undefined;
  const repo = new MailRepository(deps.db);
  usageRegistry(deps).register('mailboxes', (q, projectIds) => repo.mailboxCount(q, projectIds));
  const service: MailService = new MailService({
    repo,
    secrets: deps.secrets,
    clock: deps.clock,
    dns: options.dns ?? createDnsLookup(deps.config.dnsServers),
    mailHost: deps.config.mailHost,
    platformDomain: deps.config.platformDomain,
    webmailUrl: deps.config.webmailUrl,
    mailServersAttached: deps.config.mailServersAttached,
    onVerifiedDomainsChanged: exportKeys,
    limits: planLimitGuard(deps),
    events: deps.events,
  });
  return { service, handlers: createMailHandlers(service) };
}

export const mailPlugin = fp(
  async (app: FastifyInstance) => {
    const smtp = createMailModule(app.deps);
    app.decorate('mail', smtp.service);
    app.projects.lifecycles.register(mailLifecycle(app.deps));
    app.contractParts.add('mail', smtp);
  },
  { name: 'hostbase-mail', dependencies: ['hostbase-contract-parts', 'hostbase-projects'], decorators: { fastify: ['deps'] } },
);

declare module 'fastify' {
  interface FastifyInstance {
    mail: MailService;
  }
}
