#!/usr/bin/env node
// `npm run pack`: builds @hostbase/client and @hostbase/cli and leaves their installable tarballs in
// dist/packages/ (hostbase-client-<version>.tgz, hostbase-cli-<version>.tgz), the way to install
// them outside this repository until they are published: `npm install <tarball>`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist/packages');
fs.mkdirSync(out, { recursive: true });
// npm pack runs each package's prepare (its build) first.
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const packed = JSON.parse(execFileSync(npm, ['pack', '--workspaces', '--json', '--pack-destination', out], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
for (const p of packed) console.log(`${path.relative(process.cwd(), path.join(out, p.filename))}  (${p.name}@${p.version}: ${p.entryCount} files, ${(p.size / 1024).toFixed(1)} KB packed, ${(p.unpackedSize / 1024).toFixed(1)} KB unpacked)`);
