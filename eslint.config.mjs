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
    files: ['server/**', 'scripts/**', 'bench/**', 'test/**', '*.js', '*.mjs', 'web/*.ts', 'web/*.mts'],
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
              file: 'housekeeping.ts',
              tables: ['rate_limits', 'account_tokens', 'end_user_tokens', 'end_user_refresh_tokens', 'platform_instances'],
              why: "The periodic clean-up deletes expired rows of three modules' tables and the platform's: each module should register its own clean-up (a lifecycle registry).",
            },
            {
              file: 'modules/backup/export.ts',
              tables: ['project_keys', 'storage_objects', 'sites', 'site_deployments', 'site_manifests', 'site_env', 'smtp_domains', 'project_databases', 'project_db_tables'],
              why: 'A project export reads every module\'s rows of the project in one snapshot: an export registry, each module answering for its own rows, ends it.',
            },
            {
              file: 'modules/backup/import.ts',
              tables: ['accounts', 'projects', 'project_keys', 'sites', 'site_domains', 'smtp_domains', 'mail_accounts', 'project_databases', 'project_db_tables'],
              why: 'A project import writes every module\'s rows in one transaction: the import side of the same registry.',
            },
            {
              file: 'modules/database/changes.ts',
              tables: ['project_db_tables'],
              why: 'The database module has no repository: its own tables are read where they are used (a DatabaseRepository ends it).',
            },
            {
              file: 'modules/database/schema.service.ts',
              tables: ['project_db_tables'],
              why: 'As changes.ts: the database module\'s own table, outside a repository.',
            },
            {
              file: 'modules/database/provisioning.ts',
              tables: ['project_databases'],
              why: "As changes.ts: provisioning.ts is project_databases' door in all but name.",
            },
            {
              file: 'modules/database/database-size.ts',
              tables: ['accounts', 'projects', 'project_databases'],
              why: "An account's database bytes: its projects' schemas (projects', accounts' tables) summed in one statement.",
            },
            {
              file: 'modules/hosting/hosting.repository.ts',
              tables: ['projects'],
              why: "Joins the project's row (its subdomain, its owner) into the gateway's lookups.",
            },
            {
              file: 'modules/usage/usage.repository.ts',
              tables: ['projects', 'site_traffic', 'project_databases'],
              why: "The usage report reads projects', hosting's and database's rows: the usage registry (each module reports its own figures) ends it.",
            },
            {
              file: 'modules/usage/retention.ts',
              tables: ['usage_requests', 'usage_active_users'],
              why: "Usage's own tables, folded outside usage.repository.ts.",
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
