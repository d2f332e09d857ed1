#!/usr/bin/env node
// Builds the package: ESM with types into dist/ (tsconfig.json), CommonJS with types into dist/cjs/
// (tsconfig.cjs.json) with a package.json there that tells Node those .js files are CommonJS.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// TypeScript is the repository's (a workspace finds it in the root's node_modules).
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

fs.rmSync(path.join(here, 'dist'), { recursive: true, force: true });
for (const config of ['tsconfig.json', 'tsconfig.cjs.json']) execFileSync(process.execPath, [tsc, '-p', path.join(here, config)], { stdio: 'inherit' });
fs.writeFileSync(path.join(here, 'dist/cjs/package.json'), JSON.stringify({ type: 'commonjs' }) + '\n');
