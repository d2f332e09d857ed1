#!/usr/bin/env node
// `npm run build:server` (and `npm start` when the server's sources changed): compiles the server
// into dist/ after removing what an earlier build left there. tsc never deletes an output whose
// source is gone, and Node resolves `./runtime` to a stale `runtime.js` before a new
// `runtime/index.js`: a build over an older one could start code that no longer exists.
// `--clean-only` removes the outputs without compiling (tests).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The folders tsconfig.build.json compiles into (its sources: server/src and shared).
export const SERVER_OUTPUTS = ['dist/server', 'dist/shared'];

for (const dir of SERVER_OUTPUTS) fs.rmSync(path.join(root, dir), { recursive: true, force: true });
if (!process.argv.includes('--clean-only')) {
  const r = spawnSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json'], { stdio: 'inherit', cwd: root });
  process.exit(r.status ?? 1);
}
