// Hosted mail module (issue 11, the API half): service + handlers. A project's domain and its
// mailboxes go with the project (ON DELETE CASCADE), so no deletion hook is needed.
import type { Deps } from '../../deps';
import type { ProjectsService } from '../projects/projects.service';
import { createDnsLookup, type DnsLookup } from './dns-records';
import { SmtpRepository } from './smtp.repository';
import { SmtpService } from './smtp.service';
import { createSmtpHandlers } from './smtp.handlers';

export function createSmtpModule(deps: Deps, projects: ProjectsService, options: { dns?: DnsLookup } = {}) {
  const service = new SmtpService({
    repo: new SmtpRepository(deps.db),
    secrets: deps.secrets,
    clock: deps.clock,
    dns: options.dns ?? createDnsLookup(deps.config.dnsServers),
    mailHost: deps.config.mailHost,
    platformDomain: deps.config.platformDomain,
    webmailUrl: deps.config.webmailUrl,
  });
  return { service, handlers: createSmtpHandlers(service, projects) };
}
