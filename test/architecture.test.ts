// The architecture's rules, shown failing and holding: dependency-cruiser's rules
// (.dependency-cruiser.cjs, `npm run lint:deps`) each fail on a small tree of their own under
// test/fixtures/architecture/ and pass on the real tree; the raw SQL rule hostbase/table-door
// (scripts/eslint/table-door.mjs) likewise; and every module's plugin declares the modules whose
// faces it imports.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(__dirname, '..');
const fixtures = path.join(root, 'test/fixtures/architecture');
const depcruise = path.join(root, 'node_modules/.bin/depcruise');

interface Violation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
}
interface CruiseModule {
  source: string;
  dependencies: { resolved: string; dependencyTypes: string[] }[];
}
interface Cruise {
  modules: CruiseModule[];
  summary: { violations: Violation[]; error: number };
}

/** dependency-cruiser with the repository's config, as `npm run lint:deps` runs it. */
async function cruise(args: string[]): Promise<Cruise> {
  const run = promisify(execFile);
  try {
    const { stdout } = await run(depcruise, [...args, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: root, maxBuffer: 64 << 20 });
    return JSON.parse(stdout) as Cruise;
  } catch (err) {
    // Exit code 1 with violations: the JSON is still there.
    const stdout = (err as { stdout?: string }).stdout;
    if (!stdout) throw err;
    return JSON.parse(stdout) as Cruise;
  }
}

const rel = (p: string) => p.replace(/^test\/fixtures\/architecture\/[^/]+\//, '');
const caseOf = (p: string) => /^test\/fixtures\/architecture\/([^/]+)\//.exec(p)?.[1];

describe('dependency-cruiser rules (.dependency-cruiser.cjs)', () => {
  let found: Violation[];

  beforeAll(async () => {
    // The config leaves fixtures out of the real tree's cruise; here they are the tree.
    found = (await cruise(['test/fixtures/architecture', '--exclude', '\\.test\\.tsx?$'])).summary.violations;
  }, 120_000);

  const violationsOf = (name: string) => found.filter((v) => caseOf(v.from) === name).map((v) => ({ rule: v.rule.name, from: rel(v.from), to: rel(v.to) }));

  test('a module reached past its face fails module-internals', () => {
    expect(violationsOf('module-internals')).toEqual([
      { rule: 'module-internals', from: 'server/src/modules/b/b.service.ts', to: 'server/src/modules/a/a.service.ts' },
    ]);
  });

  test("a module's part reached past its face fails part-internals, from a sibling part and from the module's own files", () => {
    expect(violationsOf('part-internals').sort((a, b) => a.from.localeCompare(b.from))).toEqual([
      { rule: 'part-internals', from: 'server/src/modules/a/a.module.ts', to: 'server/src/modules/a/two/two.ts' },
      { rule: 'part-internals', from: 'server/src/modules/a/two/two.ts', to: 'server/src/modules/a/one/one.ts' },
    ]);
  });

  test('the platform importing a module fails platform-imports-upward', () => {
    expect(violationsOf('platform-imports-upward')).toEqual([
      { rule: 'platform-imports-upward', from: 'server/src/platform/tool.ts', to: 'server/src/modules/a/index.ts' },
    ]);
  });

  test('a module importing the HTTP layer fails modules-import-upward', () => {
    expect(violationsOf('modules-import-upward')).toEqual([
      { rule: 'modules-import-upward', from: 'server/src/modules/a/a.handlers.ts', to: 'server/src/http/contract.ts' },
    ]);
  });

  test('an import circle fails no-circular, and a circle through a type-only import too', () => {
    expect(violationsOf('no-circular').map((v) => v.rule)).toEqual(['no-circular']);
    expect(violationsOf('no-circular')[0]!.from).toMatch(/^server\/src\/platform\/(one|two)\.ts$/);
    expect(violationsOf('no-circular-type-only').map((v) => v.rule)).toEqual(['no-circular']);
  });

  test("a module's own table used outside its repository fails table-outside-its-door", () => {
    expect(violationsOf('table-outside-its-door')).toEqual([
      { rule: 'table-outside-its-door', from: 'server/src/modules/a/a.service.ts', to: 'server/src/modules/a/a.tables.ts' },
    ]);
  });

  test('a platform table touched outside its door fails table-outside-its-door', () => {
    expect(violationsOf('platform-table-outside-its-door')).toEqual([
      { rule: 'table-outside-its-door', from: 'server/src/modules/a/a.service.ts', to: 'server/src/platform/rate-limit.tables.ts' },
    ]);
  });

  test("another module's table in a repository fails both the door and the face", () => {
    expect(violationsOf('foreign-table-in-repository').sort((a, b) => a.rule.localeCompare(b.rule))).toEqual([
      { rule: 'module-internals', from: 'server/src/modules/b/b.repository.ts', to: 'server/src/modules/a/a.tables.ts' },
      { rule: 'table-outside-its-door', from: 'server/src/modules/b/b.repository.ts', to: 'server/src/modules/a/a.tables.ts' },
    ]);
  });

  test('what the rules allow passes: faces, foreign keys, row types, repositories, the schema aggregation, platform doors', () => {
    expect(violationsOf('clean')).toEqual([]);
    expect(violationsOf('raw-sql')).toEqual([]);
  });
});

describe('the real tree', () => {
  let real: Cruise;

  beforeAll(async () => {
    real = await cruise(['server/src', 'packages/client/src']);
  }, 180_000);

  test('server/src and packages/client/src break no rule (known exceptions aside, named in the config)', () => {
    expect(real.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
    expect(real.modules.some((m) => m.source.startsWith('packages/client/src/'))).toBe(true);
  });

  test('every known exception still names an import that exists (a fixed one is taken off the list)', () => {
    const { knownExceptions } = require('../.dependency-cruiser.cjs') as { knownExceptions: { file: string; runtime?: string[]; typeOnly?: string[] }[] };
    const imports = new Map(real.modules.map((m) => [m.source, m.dependencies]));
    const stale: string[] = [];
    for (const k of knownExceptions) {
      const deps = imports.get(`server/src/${k.file}`) ?? [];
      for (const [target, typeOnly] of [...(k.runtime ?? []).map((t) => [t, false] as const), ...(k.typeOnly ?? []).map((t) => [t, true] as const)]) {
        const dep = deps.find((d) => d.resolved === `server/src/modules/${target}.ts`);
        if (!dep || dep.dependencyTypes.includes('type-only') !== typeOnly) stale.push(`${k.file} → ${target}`);
      }
    }
    expect(stale).toEqual([]);
  });

  /**
   * A module's plugin declares (fastify-plugin `dependencies`) every module whose face it imports,
   * except these: the import is a helper that needs no plugin, and that module registers after
   * this one (app.ts), for a reason of order.
   */
  const HELPERS_ONLY: Record<string, Record<string, string>> = {
    accounts: { activity: "its context helpers (an entry written in the change's transaction); activity registers late: its hooks wrap the contract's routes" },
    projects: { activity: 'as accounts' },
    storage: { activity: 'as accounts' },
    'end-users': {
      activity: 'as accounts',
      mail: 'projectMailers(deps), built from the platform; mail registers later',
      usage: 'signInRecorder(deps), built from the platform; usage registers later',
    },
    hosting: {
      activity: 'as accounts',
      storage: "storageQuota(deps): hosting registers before the security headers (its gateway hook comes first), storage after them (its share-link route)",
    },
    domains: { mail: "normalizeDomain, a pure function; domains registers before hosting, mail after" },
  };

  test("every module's plugin declares the modules whose faces it imports", () => {
    const faceImports = new Map<string, Set<string>>();
    const moduleOf = (p: string) => /^server\/src\/modules\/([^/]+)\//.exec(p)?.[1];
    for (const m of real.modules) {
      const from = moduleOf(m.source);
      if (!from) continue;
      for (const d of m.dependencies) {
        const to = moduleOf(d.resolved);
        if (to && to !== from && d.resolved.endsWith(`/modules/${to}/index.ts`)) {
          if (!faceImports.has(from)) faceImports.set(from, new Set());
          faceImports.get(from)!.add(to);
        }
      }
    }
    // Each module's plugin, from its face: fastify-plugin keeps the name and dependencies on it.
    const meta = Symbol.for('plugin-meta');
    const plugins = new Map<string, { name: string; dependencies: string[] }>();
    for (const name of ['accounts', 'activity', 'end-users', 'backup', 'billing', 'contact', 'database', 'domains', 'hosting', 'notifications', 'projects', 'mail', 'storage', 'system', 'usage']) {
      const face = require(`../server/src/modules/${name}`) as Record<string, unknown>;
      const plugin = Object.values(face).find((v) => typeof v === 'function' && (v as unknown as Record<symbol, unknown>)[meta]) as unknown as Record<symbol, { name: string; dependencies?: string[] }>;
      plugins.set(name, { name: plugin[meta].name, dependencies: plugin[meta].dependencies ?? [] });
    }
    const missing: string[] = [];
    for (const [from, tos] of faceImports) {
      const plugin = plugins.get(from);
      if (!plugin) continue;
      for (const to of tos) {
        const needed = plugins.get(to);
        if (!needed || plugin.dependencies.includes(needed.name) || HELPERS_ONLY[from]?.[to]) continue;
        missing.push(`${plugin.name} imports ${to}'s face but does not declare ${needed.name}`);
      }
    }
    expect(missing).toEqual([]);
    // The helpers-only list holds only imports that exist and are not declared.
    for (const [from, tos] of Object.entries(HELPERS_ONLY)) {
      for (const to of Object.keys(tos)) {
        expect(faceImports.get(from)?.has(to)).toBe(true);
        expect(plugins.get(from)!.dependencies).not.toContain(plugins.get(to)!.name);
      }
    }
  });
});

describe('hostbase/table-door: raw SQL names a table only in its door', () => {
  test("fails on SQL outside the door, in another module's repository, on a platform table; allows doors (a repository in a module's part too) and named exceptions", async () => {
    const cwd = path.join(fixtures, 'raw-sql');
    const eslint = path.join(root, 'node_modules/.bin/eslint');
    const run = promisify(execFile);
    const args = ['--config', '../raw-sql.eslint.config.mjs', '--format', 'json', 'server/src'];
    const stdout = await run(eslint, args, { cwd }).then(
      (r) => r.stdout,
      (err: { stdout?: string }) => err.stdout ?? '',
    );
    const results = JSON.parse(stdout) as { filePath: string; messages: { ruleId: string; message: string }[] }[];
    const messages = results.flatMap((r) => r.messages.map((m) => `${path.relative(cwd, r.filePath)}: ${m.message}`)).sort();
    const outside = (table: string, door: string) => `Raw SQL names the table ${table} outside its door (${door}): ask its module's face for what is needed, or add the statement to that repository.`;
    expect(messages).toEqual([
      `server/src/modules/a/a.service.ts: ${outside('a_items', 'modules/a/*.repository.ts')}`,
      `server/src/modules/a/part/part.service.ts: ${outside('a_items', 'modules/a/*.repository.ts')}`,
      `server/src/modules/b/b.cleanup.ts: ${outside('rate_limits', 'platform/rate-limit.ts')}`,
      `server/src/modules/b/b.repository.ts: ${outside('a_items', 'modules/a/*.repository.ts')}`,
      `server/src/modules/b/known.ts: ${outside('rate_limits', 'platform/rate-limit.ts')}`,
    ]);
  }, 60_000);
});
