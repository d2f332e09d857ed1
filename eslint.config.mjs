// ESLint 10 flat config: typescript-eslint's recommended rules, react-hooks for the console, and the
// right globals for each part of the tree. Not type-aware: measured on the 2-core box, the whole
// repo lints in ~9 s, while the type-checked rules on server/ and test/ alone took 33 s and ~1 GB;
// `npm run typecheck` already checks types.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tableDoor from './scripts/eslint/table-door.mjs';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'server/src/generated/**', 'packages/client/src/generated/**', 'packages/client/dist/**', 'web/src/api/generated/**', 'web/dist/**', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_`-prefixed names are deliberately unused (handler signatures, destructured leftovers).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['server/**', 'scripts/**', 'bench/**', 'test/**', '*.js', '*.mjs', 'web/*.ts', 'web/*.mts', 'packages/*/build.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.cjs', 'jest.config.js', 'web/test/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // One door per table, for raw SQL (scripts/eslint/table-door.mjs; the import side is
    // dependency-cruiser's, .dependency-cruiser.cjs). A table's door is its module's repository.
    files: ['server/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { hostbase: { rules: { 'table-door': tableDoor } } },
    rules: {
      'hostbase/table-door': [
        'error',
        {
          doors: {
            // Tables whose door is not a *.repository.ts: the rate limiter is rate_limits'
            // repository; the lookup cache's instances, the sites' output and the runner lease have
            // no drizzle table and one file each that keeps them; site-identities.ts allocates uids.
            rate_limits: 'platform/rate-limit.ts',
            platform_instances: 'platform/lookup-cache.ts',
            site_runtime_logs: 'modules/hosting/runtime/runtime-logs.ts',
            site_runner_lease: 'modules/hosting/runtime/runtime.leased.ts',
            site_identities: 'modules/hosting/runtime/site-identities.ts',
          },
          // Known exceptions: today's raw SQL outside a table's door, each with the work that ends it.
          exceptions: [
            {
              file: 'modules/database/database-size.ts',
              tables: ['accounts', 'projects', 'project_databases'],
              why: "An account's plan and its projects' schemas' bytes in one statement: the row API's size check runs it before each write, on the connection pool the write's transaction is about to take (split, the second statement could queue behind it), and the table editor inside a tenant session. Billing and the usage report ask the usage registry instead.",
            },
            {
              file: 'modules/hosting/hosting.repository.ts',
              tables: ['projects'],
              why: "One statement each where it is the point: the gateway's lookup of a Host (the project, its site and live deployment in one query, on the hosted sites' hot path) and the fair build queue (one UPDATE … SKIP LOCKED ranking queued builds by their owner's running count; split, two instances would claim on stale counts).",
            },
            {
              file: 'modules/usage/usage.repository.ts',
              tables: ['projects'],
              why: "The request counts' flush joins projects in its one INSERT … SELECT: a count of a project deleted meanwhile, or of a console call naming a project its caller does not own, is dropped in the statement that writes (a separate check could race the deletion and fail the batch's foreign key).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/src/**'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    // The two classic hook rules. The React Compiler rules of react-hooks 7 (set-state-in-effect, refs,
    // ...) judge code written for the compiler; the console is not compiled with it.
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'test/**', 'web/src/test/**'],
    languageOptions: { globals: { ...globals.jest, ...globals.node } },
  },
  {
    // Tests and benches read untyped JSON answers and load modules late (after env or mocks are set,
    // or untyped CommonJS packages): `any` and require() are their normal tools there.
    files: ['**/*.test.ts', '**/*.test.tsx', 'test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
);
