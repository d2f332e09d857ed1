// A table's app access rule, enforced by PostgreSQL: grants to the project's app role and
// row-level security policies bound to the end user (hostbase.uid, set by the platform from a
// verified access token). Nothing here is checked in JavaScript: a call the rule does not allow
// fails in the database (42501, a 403) or sees no rows.
import type { TxClient } from '../../db/client';
import { Errors } from '../../platform/errors';
import { quoteIdent } from './identifiers';
import type { DbAccess, ProjectDatabaseRow } from './database.tables';
import type { TableInfo } from './catalog';

export const OWNER_COLUMN = 'owner_id';
/** The signed-in end user of this transaction, or null. */
export const END_USER_ID = `nullif(current_setting('hostbase.uid', true), '')::uuid`;

const POLICIES = ['hb_read', 'hb_signed_in', 'hb_owner'];

/** Runs as the project's owner role (inside its tenant session). */
export async function applyAccess(tx: TxClient, names: ProjectDatabaseRow, table: TableInfo, access: DbAccess): Promise<void> {
  const t = quoteIdent(table.name);
  const app = quoteIdent(names.appRole);
  await tx.query(`ALTER TABLE ${t} ENABLE ROW LEVEL SECURITY`);
  await tx.query(`REVOKE ALL ON ${t} FROM ${app}`);
  for (const p of POLICIES) await tx.query(`DROP POLICY IF EXISTS ${p} ON ${t}`);
  if (access === 'none') return;
  if (access === 'read') {
    await tx.query(`GRANT SELECT ON ${t} TO ${app}`);
    await tx.query(`CREATE POLICY hb_read ON ${t} FOR SELECT TO ${app} USING (true)`);
    return;
  }
  await tx.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${t} TO ${app}`);
  if (access === 'signed_in') {
    await tx.query(`CREATE POLICY hb_signed_in ON ${t} FOR ALL TO ${app} USING (${END_USER_ID} IS NOT NULL) WITH CHECK (${END_USER_ID} IS NOT NULL)`);
    return;
  }
  const owner = table.columns.find((c) => c.name === OWNER_COLUMN);
  if (!owner) await tx.query(`ALTER TABLE ${t} ADD COLUMN ${OWNER_COLUMN} uuid DEFAULT ${END_USER_ID}`);
  else if (owner.type !== 'uuid') throw Errors.conflict(`The owner rule needs ${OWNER_COLUMN} to be a uuid column; this table's is ${owner.type}`);
  else await tx.query(`ALTER TABLE ${t} ALTER COLUMN ${OWNER_COLUMN} SET DEFAULT ${END_USER_ID}`);
  const mine = `${OWNER_COLUMN} = ${END_USER_ID}`;
  await tx.query(`CREATE POLICY hb_owner ON ${t} FOR ALL TO ${app} USING (${mine}) WITH CHECK (${mine})`);
}
