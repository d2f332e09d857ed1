// The usage operations of openapi.yaml: the caller's projects together, or one of them.
import { currentAccount, ownedProject } from '../caller';
import type { HandlerMap } from '../../platform/http/types';
import type { UsageService } from './usage.service';

export function createUsageHandlers(service: UsageService): HandlerMap {
  return {
    getAccountUsage: async (req) => {
      const account = currentAccount(req);
      return service.report({ accountId: account.id }, account.plan, req.body?.range);
    },

    getProjectUsage: async (req) => {
      const project = await ownedProject(req);
      return service.report({ projectId: project.id }, currentAccount(req).plan, req.body?.range);
    },
  };
}
