// ESLint 10 flat config: typescript-eslint's recommended rules, react-hooks for the console, and the
// right globals for each part of the tree. Not type-aware: measured on the 2-core box, the whole
// repo lints in ~9 s, while the type-checked rules on server/ and test/ alone took 33 s and ~1 GB;
// `npm run typecheck` already checks types.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
