// Rows: the apps' data API (/api/db/v1, the project's key and an end user's token) and the
// console's row grid (developer token, as the project's owner role).
import type { HandlerMap } from '../../http/types';
import type { DatabaseContext } from './database.context';

export function createRowsHandlers(_ctx: DatabaseContext): HandlerMap {
  return {};
}
