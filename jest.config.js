// Two projects: the server (node, real PostgreSQL or PGlite) and the web (jsdom component tests).
// ESM-only packages reached through CommonJS code must be transformed by swc.
const esmOnly = [
  '@noble', '@scure', 'content-disposition', 'cookie', 'strnum', '@nodable', 'anynum', 'xml-naming',
  'fastify-openapi-glue', '@seriousme', 'otplib', '@otplib',
];
const transformIgnorePatterns = [`/node_modules/(?!(${esmOnly.join('|')})/)`];
const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' }, module: { type: 'commonjs' } }];

// The real framework builds (npm installs, Next.js) take both cores for up to a minute each: `npm
// test` runs them on their own after the rest (scripts/test.mjs), so the other tests can run
// several files at once without their set-up starving. HOSTBASE_BUILD_TESTS=only|skip picks a side.
const BUILD_TESTS = ['/test/hosting/builds/builder.test.ts', '/test/hosting/builds/frameworks.test.ts'];
const buildTests = process.env.HOSTBASE_BUILD_TESTS;

// PGlite loads its WebAssembly through a dynamic import, which jest's VM allows only with
// --experimental-vm-modules. `npm test` (scripts/test.mjs) passes the flag; a bare `npx jest
// <file>` does not, and jest runs a single file inside this very process. So: the flag goes into
// the environment its workers start with, and a worker memory limit makes jest always use a worker
// (it runs in band only when no limit is set), never this flagless process.
const vmFlag = '--experimental-vm-modules';
const flagged = process.execArgv.includes(vmFlag) || (process.env.NODE_OPTIONS ?? '').includes(vmFlag);
if (!flagged) process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, vmFlag, '--no-warnings'].filter(Boolean).join(' ');

module.exports = {
  ...(flagged ? {} : { workerIdleMemoryLimit: '1GB' }),
  // Set-up builds a whole app on a fresh database; on a loaded 2-core machine that can pass jest's
  // 5 s default (a global option: jest ignores it inside a project). Longer tests say so themselves.
  testTimeout: 30_000,
  projects: [
    {
      displayName: 'server',
      testEnvironment: 'node',
      roots: ['<rootDir>/server', '<rootDir>/test'],
      testMatch: buildTests === 'only' ? BUILD_TESTS.map((f) => `**${f}`) : ['**/*.test.ts'],
      // The fault tests (real processes killed, outages) take over a minute: `npm run test:faults`
      // (HOSTBASE_FAULT_TESTS=1), which .ci/run calls on both engines.
      testPathIgnorePatterns: ['/node_modules/', '/test/e2e/', ...(process.env.HOSTBASE_FAULT_TESTS ? [] : ['/test/faults/']), ...(buildTests === 'skip' ? BUILD_TESTS : [])],
      transform: { '^.+\\.(t|j|mj)sx?$': swc },
      transformIgnorePatterns,
      // packages/client is ESM with NodeNext-style './x.js' imports of its .ts sources.
      moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
      globalSetup: '<rootDir>/test/helpers/global-setup.ts',
      globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
    },
    {
      displayName: 'web',
      testEnvironment: 'jsdom',
      roots: ['<rootDir>/web/src'],
      testMatch: ['**/*.test.ts', '**/*.test.tsx'],
      transform: { '^.+\\.(t|j|mj)sx?$': swc },
      transformIgnorePatterns,
      moduleNameMapper: { '\\.(css|svg|png|jpg|webp)$': '<rootDir>/web/test/style-stub.js' },
      // Polyfills jsdom lacks (TextEncoder for react-router), loaded before every web test.
      setupFiles: ['<rootDir>/web/src/test/polyfills.ts'],
      setupFilesAfterEnv: ['<rootDir>/web/src/test/timeouts.ts'],
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      roots: ['<rootDir>/test'],
      testMatch: ['**/e2e/**/*.e2e.ts'],
      transform: { '^.+\\.(t|j|mj)sx?$': swc },
      transformIgnorePatterns,
    },
  ],
};
