// Thin handlers keyed by operationId: the caller's own project first (no token: 401; another
// account's project: 404), then the rules of the service.
import type { HandlerMap } from '../../platform/http/types';
import { ownedProject as owned } from '../caller';
import type { DomainsService } from './domains.service';

export function createDomainsHandlers(domains: DomainsService): HandlerMap {
  return {
    listSiteDomains: async (req) => {
      const project = await owned(req);
      return (await domains.list(project)).map((row) => domains.view(project, row));
    },

    addSiteDomain: async (req) => {
      const project = await owned(req);
      return domains.view(project, await domains.add(project, req.body.hostname));
    },

    verifySiteDomain: async (req) => {
      const project = await owned(req);
      const { message, row } = await domains.verify(project, req.body.hostname);
      return { message, domain: domains.view(project, row) };
    },

    removeSiteDomain: async (req) => {
      await domains.remove(await owned(req), req.body.hostname);
      return { message: 'removed' };
    },
  };
}
