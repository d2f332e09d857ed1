// Console: the project's tables, their columns and access rules, and the SQL box (developer token).
import type { HandlerMap } from '../../http/types';
import type { DatabaseContext } from './database.context';

export function createSchemaHandlers(_ctx: DatabaseContext): HandlerMap {
  return {};
}
