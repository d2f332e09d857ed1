#!/usr/bin/env node
// `npm test`: the server and web suites (jest), then the browser journeys when Chromium exists.
// The server suite runs on PostgreSQL when DATABASE_URL is set, else on embedded PGlite.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, '--experimental-vm-modules', '--no-warnings'].filter(Boolean).join(' ') };
const jest = path.join(root, 'node_modules/.bin/jest');
const extra = process.argv.slice(2);

function run(args) {
  const r = spawnSync(jest, args, { stdio: 'inherit', env, cwd: root });
  return r.status ?? 1;
}

let status = run(['--selectProjects', 'server', 'web', ...extra]);
if (status === 0 && !extra.length) {
  if (fs.existsSync('/usr/bin/chromium') && fs.existsSync(path.join(root, 'test/e2e'))) {
    status = spawnSync(process.execPath, [path.join(root, 'scripts/test-e2e.mjs')], { stdio: 'inherit', env, cwd: root }).status ?? 1;
  } else {
    console.log('e2e: skipped (no /usr/bin/chromium; `apt-get install chromium` to run the browser journeys)');
  }
}
process.exit(status);
