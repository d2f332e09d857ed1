// Hosted mail module, the API half (the mail servers are scripts/mail/): service + handlers. A project's domain and its
// mailboxes go with the project (ON DELETE CASCADE), so no deletion hook is needed.
// As a plugin: decorates app.smtp.
import type { FastifyInstance } from 'fastify';
import { planLimitGuard, usageRegistry } from '../plans';
import fp from 'fastify-plugin';
import type { Deps } from '../../platform/deps';
import { writeDkimKeys } from './dkim-export';
import { createDnsLookup, type DnsLookup } from './dns-records';
import { SmtpRepository } from './smtp.repository';
import { SmtpService } from './smtp.service';
import { createSmtpHandlers } from './smtp.handlers';

export function createSmtpModule(deps: Deps, options: { dns?: DnsLookup } = {}) {
  const { mailDkimDir, mailDkimPidFile } = deps.config;
  // With a mail host on this machine (MAIL_DKIM_DIR), its OpenDKIM gets the verified domains' keys.
  const exportKeys = mailDkimDir
    ? async () => writeDkimKeys(await service.verifiedDkimKeys(), { dir: mailDkimDir, pidFile: mailDkimPidFile })
    : undefined;
  const repo = new SmtpRepository(deps.db);
  usageRegistry(deps).register('mailboxes', (q, projectIds) => repo.mailboxCount(q, projectIds));
  const service: SmtpService = new SmtpService({
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
  return { service, handlers: createSmtpHandlers(service) };
}

export const smtpPlugin = fp(
  async (app: FastifyInstance) => {
    const smtp = createSmtpModule(app.deps);
    app.decorate('smtp', smtp.service);
    app.contractParts.add('smtp', smtp);
  },
  { name: 'hostbase-smtp', dependencies: ['hostbase-contract-parts', 'hostbase-projects'], decorators: { fastify: ['deps'] } },
);

declare module 'fastify' {
  interface FastifyInstance {
    smtp: SmtpService;
  }
}
