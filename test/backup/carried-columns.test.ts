// No column silently drops out of project archives: every table a lifecycle section's module owns
// (its *.tables.ts, and the ones it keeps without a drizzle table) is declared by the section, and
// every column of it, in the live schema (information_schema, on the engine the tests run on) and
// in its drizzle table, is either carried or left out with why. A column added anywhere without a
// word in its module's *.lifecycle.ts fails here (shown below with a column added in the test).
// Every table that holds a project's rows (a project_id column) belongs to a section, or to the
// short list of history that is not carried, each with why. And the command's sections
// (cli/project.ts, built without a server) are the server's.
import fs from 'node:fs';
import path from 'node:path';
import { getTableColumns, getTableName, is } from 'drizzle-orm';
import { boolean, PgTable, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { buildTestApp, type TestApp } from '../helpers/app';
import { schema } from '../../server/src/db/schema';
import { cliLifecycles } from '../../server/src/cli/project';
import type { ProjectLifecycle } from '../../server/src/modules/projects';

/** Tables with a project's rows that no section carries: this platform's history of the project. */
const HISTORY: Record<string, string> = {
  activity_log: "the developer's activity on this platform",
  project_errors: "the project's errors panel on this platform",
  usage_requests: "this platform's request counts",
  usage_active_users: "this platform's active-user counts",
};

const MODULES = path.resolve(__dirname, '../../server/src/modules');

/** table → the module folder whose *.tables.ts defines it. */
function drizzleOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const mod of fs.readdirSync(MODULES)) {
    for (const file of fs.readdirSync(path.join(MODULES, mod), { recursive: true }) as string[]) {
      if (!file.endsWith('.tables.ts')) continue;
      for (const m of fs.readFileSync(path.join(MODULES, mod, file), 'utf8').matchAll(/pgTable\(\s*['"]([a-z_][a-z0-9_]*)['"]/g)) owners.set(m[1], mod);
    }
  }
  return owners;
}

/** table → its columns, from the drizzle tables the typed client is built from. */
function drizzleColumns(tables: Record<string, unknown> = schema): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const t of Object.values(tables)) if (is(t, PgTable)) out.set(getTableName(t), Object.values(getTableColumns(t)).map((c) => c.name));
  return out;
}

async function liveColumns(t: TestApp): Promise<Map<string, string[]>> {
  const rows = await t.database.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' ORDER BY c.table_name, c.ordinal_position`,
  );
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.table_name, [...(out.get(r.table_name) ?? []), r.column_name]);
  return out;
}

/** Every way a section's declarations and the schema disagree, in words. */
function problems(sections: readonly ProjectLifecycle[], live: Map<string, string[]>, drizzle: Map<string, string[]>, owners: Map<string, string>): string[] {
  const found: string[] = [];
  const declaredBy = new Map<string, string>();
  for (const s of sections) {
    for (const [table, decl] of Object.entries(s.tables)) {
      declaredBy.set(table, s.name);
      const columns = live.get(table);
      if (!columns) {
        found.push(`${s.name} declares ${table}, which the schema does not have`);
        continue;
      }
      const leftOut = typeof decl.leftOut === 'string' ? columns : Object.keys(decl.leftOut);
      for (const c of decl.carried) if (leftOut.includes(c)) found.push(`${s.name}: ${table}.${c} is both carried and left out`);
      for (const c of [...decl.carried, ...leftOut]) if (!columns.includes(c)) found.push(`${s.name} declares ${table}.${c}, which the schema does not have`);
      const known = new Set([...decl.carried, ...leftOut]);
      for (const c of columns) if (!known.has(c)) found.push(`${table}.${c} is neither carried nor left out by the ${s.name} section`);
      for (const c of drizzle.get(table) ?? []) if (!known.has(c)) found.push(`${table}.${c} (its drizzle table) is neither carried nor left out by the ${s.name} section`);
    }
  }
  for (const s of sections)
    for (const [table, mod] of owners) if (mod === s.name && !declaredBy.has(table)) found.push(`${table} (modules/${mod}) is not declared by the ${s.name} section`);
  for (const [table, columns] of live) {
    if (!columns.includes('project_id') || declaredBy.has(table) || HISTORY[table]) continue;
    found.push(`${table} holds a project's rows, and no lifecycle section declares it`);
  }
  return found;
}

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

test("every column of every section's tables is carried or left out with why, on this engine's schema and in the drizzle tables", async () => {
  const sections = t.app.projects.lifecycles.ordered();
  const live = await liveColumns(t);
  expect(sections.map((s) => s.name)).toEqual(['projects', 'auth-users', 'database', 'domains', 'hosting', 'smtp', 'storage']);
  expect(problems(sections, live, drizzleColumns(), drizzleOwners())).toEqual([]);
  for (const s of sections)
    for (const [table, decl] of Object.entries(s.tables)) {
      const whys = typeof decl.leftOut === 'string' ? [decl.leftOut] : Object.values(decl.leftOut);
      expect({ table, whys: whys.filter((w) => w.trim().length < 10) }).toEqual({ table, whys: [] });
    }
  for (const table of Object.keys(HISTORY)) expect({ table, project: live.get(table)?.includes('project_id') }).toEqual({ table, project: true });
});

test('a column added without a word in its section fails the check: in the schema, and in a drizzle table', async () => {
  const sections = t.app.projects.lifecycles.ordered();
  await t.database.query('ALTER TABLE storage_objects ADD COLUMN checksum text');
  await t.database.query('CREATE TABLE project_notes (project_id uuid REFERENCES projects (id), body text)');
  try {
    expect(problems(sections, await liveColumns(t), drizzleColumns(), drizzleOwners())).toEqual([
      'storage_objects.checksum is neither carried nor left out by the storage section',
      "project_notes holds a project's rows, and no lifecycle section declares it",
    ]);
  } finally {
    await t.database.query('ALTER TABLE storage_objects DROP COLUMN checksum');
    await t.database.query('DROP TABLE project_notes');
  }
  // A drizzle table with a column the section does not name (as a change of storage.tables.ts would make).
  const changed = {
    storageRules: pgTable('storage_rules', { projectId: uuid('project_id'), folder: text('folder'), access: text('access'), public: boolean('public'), updatedAt: timestamp('updated_at'), note: text('note') }),
  };
  expect(problems(sections, await liveColumns(t), drizzleColumns(changed), drizzleOwners())).toEqual([
    'storage_rules.note (its drizzle table) is neither carried nor left out by the storage section',
  ]);
  // And a table of a section's module that the section does not declare.
  expect(problems(sections, await liveColumns(t), drizzleColumns(), new Map([...drizzleOwners(), ['project_notes', 'storage']]))).toEqual([
    'project_notes (modules/storage) is not declared by the storage section',
  ]);
});

test("the command's sections (cli/project.ts, no server) are the server's, with the same tables and order", () => {
  const server = t.app.projects.lifecycles.ordered();
  const cli = cliLifecycles(t.app.deps).ordered();
  expect(cli.map((s) => [s.name, s.after ?? [], s.tables])).toEqual(server.map((s) => [s.name, s.after ?? [], s.tables]));
  // Deletes need the running modules: only the server's sections have them.
  expect(server.filter((s) => s.delete).map((s) => s.name)).toEqual(['database', 'hosting', 'storage']);
});
