#!/usr/bin/env node
// `npm run test:e2e`: the browser journeys (test/e2e/*.e2e.ts) in Debian's Chromium against the
// real server on a free port. Rebuilds web/dist first; screenshots land in artifacts/e2e/.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  console.error(`test:e2e: ${chromium} not found; install it with \`apt-get install chromium\``);
  process.exit(1);
}
const vite = spawnSync(path.join(root, 'node_modules/.bin/vite'), ['build', '--config', 'web/vite.config.mts', '--logLevel', 'warn'], {
  cwd: root,
  stdio: 'inherit',
});
if (vite.status !== 0) process.exit(vite.status ?? 1);
const env = { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, '--no-warnings'].filter(Boolean).join(' ') };
const r = spawnSync(path.join(root, 'node_modules/.bin/jest'), ['--selectProjects', 'e2e', '--runInBand', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env,
});
process.exit(r.status ?? 1);
