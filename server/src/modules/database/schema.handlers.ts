// Console: the project's tables, their columns and access rules, and the SQL box (developer token).
// The caller's own project first (no token: 401; another account's project: 404), then the rules
// of schema.service.ts and sql-box.ts.
import { currentAccount, ownedProject as owned } from '../caller';
import type { HandlerMap } from '../../platform/http/types';
import type { DatabaseContext } from './database.context';
import { SchemaService } from './schema.service';
import { runSql } from './sql-box';
import { consoleTimeoutCaller } from './timeout-cooldown';

export function createSchemaHandlers(ctx: DatabaseContext): HandlerMap {
  const schema = new SchemaService(ctx);
  return {
    listDbTables: async (req) => schema.list(await owned(req)),

    createDbTable: async (req) => schema.createTable(await owned(req), req.body),

    dropDbTable: async (req) => {
      await schema.dropTable(await owned(req), req.body.name, req.body.confirm);
      return { message: 'dropped' };
    },

    addDbColumn: async (req) => schema.addColumn(await owned(req), req.body.table, req.body.column),

    renameDbColumn: async (req) => schema.renameColumn(await owned(req), req.body.table, req.body.column, req.body.new_name),

    dropDbColumn: async (req) => schema.dropColumn(await owned(req), req.body.table, req.body.column),

    setDbTableAccess: async (req) => schema.setAccess(await owned(req), req.body.table, req.body.access),

    runDbSql: async (req) => runSql(ctx, await owned(req), req.body.query, consoleTimeoutCaller(currentAccount(req).id)),
  };
}
