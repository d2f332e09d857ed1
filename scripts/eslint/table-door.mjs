// ESLint rule hostbase/table-door: raw SQL names a platform table only in that table's door.
//
// A table's door is a repository of the module that owns it (a *.repository.ts beside the
// *.tables.ts that defines it with pgTable('name'), or in a part of that module: a subfolder of
// that folder), or the file named for it in `doors` (tables without a drizzle definition, and the
// few whose repository has another name). The import side of
// the same rule (a table's drizzle object used outside its door) is dependency-cruiser's
// table-outside-its-door (.dependency-cruiser.cjs); this one reads the SQL text that rule can't:
// every string and template literal of server/src with a SELECT, INSERT, UPDATE or DELETE in it,
// for the tables it names after FROM, JOIN, INTO, UPDATE and TABLE.
//
// Options: { root: 'server/src', doors: { table: 'file' }, exceptions: [{ file, tables, why }] }.
// An exception names the file and the tables it may still name: the rule holds for any other
// table, and for every other file.
import fs from 'node:fs';
import path from 'node:path';

const SQL = /\b(SELECT|INSERT|UPDATE|DELETE|TRUNCATE)\b/;
const NAMED = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE|TRUNCATE)\s+(?:ONLY\s+|IF\s+(?:NOT\s+)?EXISTS\s+)?(?:public\.)?"?([a-z_][a-z0-9_]*)"?/g;

const cache = new Map();

/** table name → the *.tables.ts (root-relative) that defines it, read once per root. */
function tableFiles(rootDir) {
  let owners = cache.get(rootDir);
  if (owners) return owners;
  owners = new Map();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.tables.ts')) {
        for (const m of fs.readFileSync(full, 'utf8').matchAll(/pgTable\(\s*['"]([a-z_][a-z0-9_]*)['"]/g)) owners.set(m[1], path.relative(rootDir, full).split(path.sep).join('/'));
      }
    }
  };
  if (fs.existsSync(rootDir)) walk(rootDir);
  cache.set(rootDir, owners);
  return owners;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: "Raw SQL names a platform table only in that table's door (its module's repository)" },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          doors: { type: 'object', additionalProperties: { type: 'string' } },
          exceptions: {
            type: 'array',
            items: {
              type: 'object',
              properties: { file: { type: 'string' }, tables: { type: 'array', items: { type: 'string' } }, why: { type: 'string' } },
              required: ['file', 'tables', 'why'],
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      outside:
        "Raw SQL names the table {{table}} outside its door ({{door}}): ask its module's face for what is needed, or add the statement to that repository.",
    },
  },
  create(context) {
    const { root = 'server/src', doors = {}, exceptions = [] } = context.options[0] ?? {};
    const rootDir = path.resolve(context.cwd, root);
    const file = path.relative(rootDir, context.filename).split(path.sep).join('/');
    if (file.startsWith('..') || /\.test\.tsx?$/.test(file) || file.includes('/generated/')) return {};
    const tables = tableFiles(rootDir);
    const allowedHere = new Set(exceptions.filter((e) => e.file === file).flatMap((e) => e.tables));

    const doorOf = (table) => {
      if (doors[table]) return doors[table];
      const defined = tables.get(table);
      return defined && `${path.posix.dirname(defined)}/*.repository.ts`;
    };
    const isDoor = (table) => {
      if (doors[table]) return doors[table] === file;
      const defined = tables.get(table);
      // Beside the tables, or in a part of their module (modules/hosting/deploy/deploy.repository.ts).
      const dir = path.posix.dirname(defined);
      const here = path.posix.dirname(file);
      return file.endsWith('.repository.ts') && (here === dir || path.posix.dirname(here) === dir);
    };

    const check = (node, text) => {
      if (!SQL.test(text)) return;
      const seen = new Set();
      for (const m of text.matchAll(NAMED)) {
        const table = m[1];
        if (seen.has(table) || !(tables.has(table) || doors[table])) continue;
        seen.add(table);
        if (isDoor(table) || allowedHere.has(table)) continue;
        context.report({ node, messageId: 'outside', data: { table, door: doorOf(table) } });
      }
    };

    return {
      Literal(node) {
        if (typeof node.value === 'string') check(node, node.value);
      },
      TemplateLiteral(node) {
        check(node, node.quasis.map((q) => q.value.cooked ?? q.value.raw).join(' $x '));
      },
    };
  },
};
