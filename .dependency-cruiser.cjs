// The architecture's boundaries as rules (`npm run lint:deps`, run by .ci/run after lint):
//
//   http/, app.ts, server.ts, cli/, housekeeping.ts      the app: wires modules together
//     ↓
//   server/src/modules/<m>/                               features; each one's index.ts is its face
//     ↓
//   server/src/platform/, server/src/db/, config.ts       generic tools; import nothing above them
//
// - module-internals: another module is reached through its face (modules/<m>/index.ts) only.
// - part-internals: a module split into parts (modules/<m>/<part>/, e.g. hosting's edge/, deploy/,
//   build/, runtime/) reaches a part through its face (modules/<m>/<part>/index.ts) only, from its
//   sibling parts and from the module's own files alike.
// - platform-imports-upward / modules-import-upward: arrows run one way, http → modules → platform.
// - table-outside-its-door: a table (a *.tables.ts) is used at run time only by its own module's
//   repositories (its door), by other tables (foreign keys) and by db/schema.ts (the schema the
//   typed client is built from). Raw SQL naming a table outside its door is the ESLint rule
//   hostbase/table-door's (eslint.config.mjs).
// - no-circular: no import circle, type-only imports included.
//
// Known exceptions are named below, each with why it is left: the rules hold for new code, and
// each exception is a piece of work with its own name. test/architecture.test.ts shows every rule
// failing on a small tree of its own (test/fixtures/architecture/) and the real tree passing.

// Paths are matched wherever a server/src/ tree sits (the repository's, or a test fixture's).
const SRC = '(?:^|/)server/src/';
const MODULE = `${SRC}modules/[^/]+/`;
const FACE = `${SRC}modules/[^/]+/index\\.ts$`;
const TABLES = '\\.tables\\.ts$';

/** Files that are a table's door without being named *.repository.ts. */
const DOORS = [
  // The rate limiter is the rate_limits table's repository.
  'platform/rate-limit.ts',
];

/**
 * Known exceptions, by file: the module internals (another module's tables) each one imports, and
 * why. `runtime` imports touch another module's table (or its own outside a repository): the
 * work of giving every table one door. `typeOnly` imports take row types where the face would
 * close a circle.
 */
const KNOWN = [
  // Row types, type-only, below the modules that own them: caller is used by every module's
  // handlers, and a face re-exports its module's plugin (and so its handlers): importing the
  // accounts, projects or auth-users face here would make a circle.
  { file: 'modules/caller/caller.ts', typeOnly: ['accounts/accounts.tables', 'end-users/end-users.tables', 'projects/projects.tables'] },
  // Likewise activity: accounts and projects write their activity entries through activity's
  // face (transactionWithActivity), so activity can't import theirs.
  { file: 'modules/activity/activity.classification.ts', typeOnly: ['accounts/accounts.tables', 'projects/projects.tables'] },
  { file: 'modules/activity/activity.service.ts', typeOnly: ['projects/projects.tables'] },

  // Another module's table at run time, kept where one statement is the point.
  // The gateway's lookup of a Host (liveBySubdomain: the project, its site and live deployment in
  // one query, on every request to a hosted site that misses the cache) and the fair build queue
  // (claimQueuedBuild, noteAccountsAtCap, runningElsewhere: one UPDATE … FOR UPDATE SKIP LOCKED
  // that ranks queued builds by their owner's running count across instances; split, two
  // instances would claim on counts already stale).
  { file: 'modules/hosting/hosting.repository.ts', runtime: ['projects/projects.tables'] },
  // The one storage accounting: an account's plan with its files' and deployments' bytes, in one
  // prepared statement (every file listing reads it: three round trips cost more than the sums),
  // and under the account row's lock inside a charge's transaction.
  { file: 'modules/storage/storage.repository.ts', runtime: ['accounts/accounts.tables', 'hosting/hosting.tables', 'projects/projects.tables'] },
];

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const fileRe = (f) => `${SRC}${esc(f)}$`;
const targetRe = (t) => `${SRC}modules/${esc(t)}\\.ts$`;
const KNOWN_FILES = KNOWN.map((k) => fileRe(k.file));

/** The face rule for a file with known exceptions: its other imports still go through faces. */
const internalsException = (k) => {
  const [, mod, rest] = /^modules\/([^/]+)\/(.+)$/.exec(k.file);
  return {
    name: 'module-internals',
    comment: `known exception (${k.file}): ${[...(k.runtime ?? []), ...(k.typeOnly ?? [])].join(', ')}`,
    severity: 'error',
    from: { path: `${SRC}modules/(${esc(mod)})/${esc(rest)}$` },
    to: { path: MODULE, pathNot: [`${SRC}modules/$1/`, FACE, ...[...(k.runtime ?? []), ...(k.typeOnly ?? [])].map(targetRe)] },
  };
};

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle (type-only imports count too): split the shared part out, or turn one arrow around.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'module-internals',
      comment: "Another module's internals: import its face (modules/<m>/index.ts), and export there what it should offer.",
      severity: 'error',
      from: { path: `${SRC}modules/([^/]+)/`, pathNot: [TABLES, ...KNOWN_FILES] },
      to: { path: MODULE, pathNot: [`${SRC}modules/$1/`, FACE] },
    },
    ...KNOWN.map(internalsException),
    {
      name: 'part-internals',
      comment: "Another part of this module reached past its face: import modules/<m>/<part>/index.ts, and export there what its siblings need.",
      severity: 'error',
      from: { path: `${SRC}modules/([^/]+)/([^/]+)/` },
      to: { path: `${SRC}modules/$1/[^/]+/`, pathNot: [`${SRC}modules/$1/$2/`, `${SRC}modules/$1/[^/]+/index\\.ts$`] },
    },
    {
      name: 'part-internals',
      comment: "A module's own files (its plugin, service, handlers) reach its parts through their faces (modules/<m>/<part>/index.ts).",
      severity: 'error',
      from: { path: `${SRC}modules/([^/]+)/[^/]+$` },
      to: { path: `${SRC}modules/$1/[^/]+/`, pathNot: [`${SRC}modules/$1/[^/]+/index\\.ts$`] },
    },
    {
      name: 'module-internals',
      comment: "A table may name another module's table (a foreign key), and nothing else of that module but its face.",
      severity: 'error',
      from: { path: `${SRC}modules/([^/]+)/[^/]+${TABLES}` },
      to: { path: MODULE, pathNot: [`${SRC}modules/$1/`, FACE, TABLES] },
    },
    {
      name: 'module-internals',
      comment: "Outside the modules (app.ts, http/, cli/, …) a module is its face; db/schema.ts alone gathers every module's tables.",
      severity: 'error',
      from: { path: SRC, pathNot: [`${SRC}modules/`, `${SRC}db/schema\\.ts$`] },
      to: { path: MODULE, pathNot: [FACE] },
    },
    {
      name: 'platform-imports-upward',
      comment: 'platform/, db/ and config.ts are below the modules and the app: they import nothing above them (db/schema.ts gathers the modules\' tables for the typed client).',
      severity: 'error',
      from: { path: [`${SRC}platform/`, `${SRC}db/`, `${SRC}config\\.ts$`], pathNot: [`${SRC}db/schema\\.ts$`] },
      to: { path: [`${SRC}modules/`, `${SRC}http/`, `${SRC}cli/`, `${SRC}(app|server|housekeeping)\\.ts$`] },
    },
    {
      name: 'modules-import-upward',
      comment: 'A module imports other modules\' faces and the platform, never the app that wires it (http/, app.ts, server.ts, cli/); what it is built from is platform/deps.ts.',
      severity: 'error',
      from: { path: `${SRC}modules/` },
      to: { path: [`${SRC}http/`, `${SRC}cli/`, `${SRC}(app|server|housekeeping|deps)\\.ts$`] },
    },
    {
      name: 'table-outside-its-door',
      comment: "A table is used at run time by its own module's repositories only (row types, type-only, may go anywhere the face rule allows).",
      severity: 'error',
      from: { path: SRC, pathNot: [TABLES, '\\.repository\\.ts$', `${SRC}db/schema\\.ts$`, ...DOORS.map(fileRe), ...KNOWN.filter((k) => k.runtime).map((k) => fileRe(k.file))] },
      to: { path: TABLES, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'table-outside-its-door',
      // A repository may sit in a part of its module (modules/<m>/<part>/x.repository.ts).
      comment: "A repository is the door of its own module's tables, not another module's.",
      severity: 'error',
      from: { path: `${SRC}(modules/[^/]+|platform)/[^/]*/?[^/]+\\.repository\\.ts$`, pathNot: KNOWN.filter((k) => k.runtime).map((k) => fileRe(k.file)) },
      to: { path: TABLES, pathNot: [`${SRC}$1/`], dependencyTypesNot: ['type-only'] },
    },
    ...KNOWN.filter((k) => k.runtime).map((k) => ({
      name: 'table-outside-its-door',
      comment: `known exception (${k.file}): ${k.runtime.join(', ')}`,
      severity: 'error',
      from: { path: fileRe(k.file) },
      // A repository keeps its own module's tables besides.
      to: { path: TABLES, pathNot: [...k.runtime.map(targetRe), ...(/\.repository\.ts$/.test(k.file) ? [`${SRC}${esc(k.file.replace(/[^/]+$/, ''))}`] : [])], dependencyTypesNot: ['type-only'] },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Tests may reach into a module (unit tests beside the code, API tests by path); generated
    // code is the contract's.
    exclude: { path: ['\\.test\\.tsx?$', '/generated/', '/fixtures/'] },
    // Type-only imports are dependencies too: they count for the face rule and for circles.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

// For test/architecture.test.ts (not a dependency-cruiser option: kept out of its validation).
Object.defineProperty(module.exports, 'knownExceptions', { value: KNOWN, enumerable: false });
