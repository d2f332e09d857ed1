#!/usr/bin/env node
// Builds the CLI into dist/ (ESM, Node only) and makes its entry executable, so that the `hostbase`
// link npm makes in node_modules/.bin runs it (in this repository: `npx hostbase`).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// TypeScript is the repository's (a workspace finds it in the root's node_modules).
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

fs.rmSync(path.join(here, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', path.join(here, 'tsconfig.json')], { stdio: 'inherit' });
fs.chmodSync(path.join(here, 'dist/cli.js'), 0o755);
