import type { HandlerMap } from '../../platform/http/types';
import { currentAccount, ownedProject } from '../caller';
import type { ActivityService } from './activity.service';

export function createActivityHandlers(service: ActivityService): HandlerMap {
  return {
    listAccountActivity: async (req) => service.activity(currentAccount(req).id, undefined, req.body),
    listProjectActivity: async (req) => service.activity(currentAccount(req).id, await ownedProject(req), req.body),
    listProjectErrors: async (req) => service.errors(await ownedProject(req), req.body),
    listAccountErrors: async (req) => service.accountErrors(currentAccount(req).id, req.body),
  };
}
