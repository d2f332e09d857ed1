#!/usr/bin/env node
// `npm test`: the server and web suites (jest), then the browser journeys when Chromium exists.
// The server suite runs on PostgreSQL when DATABASE_URL is set, else on embedded PGlite.
// Ends with one line "tests: N passed, N failed" over everything that ran.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// On a fresh clone `npm test` installs what the tests need first, as `npm start` does.
if (!fs.existsSync(path.join(root, 'node_modules/.bin/jest'))) {
  console.log('hostbase: installing dependencies (first run)…');
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { stdio: 'inherit', cwd: root });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const env = { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, '--experimental-vm-modules', '--no-warnings'].filter(Boolean).join(' ') };
const jest = path.join(root, 'node_modules/.bin/jest');
const args = process.argv.slice(2);
const projects = args.includes('--server-only') ? ['server'] : ['server', 'web'];
const extra = args.filter((a) => a !== '--server-only');

const totals = { passed: 0, failed: 0 };
function runJest(jestArgs) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-jest-')), 'results.json');
  const r = spawnSync(jest, [...jestArgs, '--json', '--outputFile', out], { stdio: 'inherit', env, cwd: root });
  if (fs.existsSync(out)) {
    const res = JSON.parse(fs.readFileSync(out, 'utf8'));
    totals.passed += res.numPassedTests;
    totals.failed += res.numFailedTests + (res.numRuntimeErrorTestSuites ?? 0);
  } else totals.failed += 1;
  return r.status ?? 1;
}

// Most tests wait on sockets, the database and child processes more than on the CPU: three files
// at once took the accounts, projects, database and mail suites from 83 s to 36 s on 2 cores
// (HOSTBASE_TEST_WORKERS to change it). The real framework builds, which do use both cores, run
// after them one at a time (jest.config.js).
const workers = process.env.HOSTBASE_TEST_WORKERS ?? '3';
let status;
if (extra.length) {
  status = runJest([...extra, '--selectProjects', ...projects]);
} else {
  env.HOSTBASE_BUILD_TESTS = 'skip';
  status = runJest(['--selectProjects', ...projects, '--maxWorkers', workers]);
  env.HOSTBASE_BUILD_TESTS = 'only';
  status = runJest(['--selectProjects', 'server', '--runInBand']) || status;
  delete env.HOSTBASE_BUILD_TESTS;
}
if (!extra.length && !args.includes('--server-only')) {
  if (fs.existsSync('/usr/bin/chromium') && fs.existsSync(path.join(root, 'test/e2e'))) {
    status = runJest(['--selectProjects', 'e2e', '--runInBand']) || status;
  } else {
    console.log('e2e: skipped (no /usr/bin/chromium; `apt-get install chromium` to run the browser journeys)');
  }
}
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed`);
process.exit(status);
