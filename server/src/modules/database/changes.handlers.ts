// Live changes of a table as Server-Sent Events, across instances.
import type { HandlerMap } from '../../http/types';
import type { DatabaseContext } from './database.context';

export function createChangesHandlers(_ctx: DatabaseContext): HandlerMap {
  return {};
}
