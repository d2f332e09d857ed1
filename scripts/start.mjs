#!/usr/bin/env node
// `npm start`: installs dependencies once, builds the server and the web console when their
// sources changed since the last build, then serves everything on one port (PORT, default 3000).
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_ENTRY, SERVER_ENV, SERVER_NODE_FLAGS } from './server-process.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    if (!fs.existsSync(p)) return;
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      if (/node_modules|[\\/]dist$|generated-tmp/.test(p)) return;
      for (const e of fs.readdirSync(p)) visit(path.join(p, e));
    } else newest = Math.max(newest, st.mtimeMs);
  };
  paths.forEach((p) => visit(path.join(root, p)));
  return newest;
}

// The stamp is written after a build here; a build made by `npm run build` counts through its
// output file, so CI's build (and a developer's) is not done twice.
function stale(stamp, output, sources) {
  const built = [stamp, output].map((f) => path.join(root, f)).find((f) => fs.existsSync(f));
  return !built || fs.statSync(built).mtimeMs < newestMtime(sources);
}

// `npm run serve` (--no-build): what is built already, as it is.
const build = !process.argv.includes('--no-build');
if (build && (!fs.existsSync(bin('tsc')) || !fs.existsSync(bin('vite')))) {
  console.log('hostbase: installing dependencies (first start)…');
  run('npm', ['install', '--no-audit', '--no-fund']);
}
if (build && stale('dist/.stamp', 'dist/server/src/server.js', ['server/src', 'shared', 'tsconfig.json', 'tsconfig.build.json', 'package.json'])) {
  console.log('hostbase: building the server…');
  run(process.execPath, [path.join(root, 'scripts/build-server.mjs')]);
  fs.writeFileSync(path.join(root, 'dist/.stamp'), new Date().toISOString());
}
if (build && stale('web/dist/.stamp', 'web/dist/index.html', ['web/src', 'shared', 'web/index.html', 'web/vite.config.mts', 'web/public', 'openapi.yaml', 'docs'])) {
  console.log('hostbase: building the web console…');
  run(bin('vite'), ['build', '--config', 'web/vite.config.mts', '--logLevel', 'warn']);
  fs.writeFileSync(path.join(root, 'web/dist/.stamp'), new Date().toISOString());
}

// The IPC channel is the server's lifeline: should this process die without a word (kill -9),
// the channel closes and the server shuts down as for a Ctrl-C, stopping its sites (server.ts).
const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, SERVER_ENTRY)], {
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  cwd: root,
  env: { ...SERVER_ENV, ...process.env },
});
// A Ctrl-C reaches the server from the terminal too; forwarding covers a signal sent to this
// process alone (kill PID). The server takes repeats calmly, and we wait for it to finish stopping
// its sites: exiting first would hand the terminal back while they still run.
let forwarded = false;
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    if (forwarded) return;
    forwarded = true;
    child.kill(sig);
  });
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
