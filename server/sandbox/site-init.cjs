#!/usr/bin/env node
// The first process inside a site's sandbox (see server/src/modules/hosting/sandbox.ts). It runs as
// the site's own uid, in the site's own network namespace, and does two things:
//  - starts the site's command and ends with it (same exit code), so the platform sees a crash;
//  - is the only way in: once the site accepts connections on its PORT (on the sandbox's private
//    loopback), it listens on a unix socket in a folder the platform shares with this sandbox
//    alone, and relays each connection there to the site. The sandbox has no other interface
//    the host can reach, and the site reaches nothing of the host.
// Plain CommonJS with no dependencies: it runs with the host's node from a read-only mount.
'use strict';
const net = require('node:net');
const fs = require('node:fs');
const { spawn } = require('node:child_process');

const [socketPath, portText, sep, ...command] = process.argv.slice(2);
const port = Number(portText);
if (!socketPath || !Number.isInteger(port) || sep !== '--' || command.length === 0) {
  console.error('[hostbase] usage: site-init.cjs SOCKET PORT -- COMMAND...');
  process.exit(64);
}

// The site gets the environment the platform chose, without what bwrap adds (PWD), plus its
// owner's variables (HOSTBASE_ENV_FILE: a JSON object the platform wrote, readable by this user
// only). The platform's PORT, NODE_ENV and PATH win: the owner's names never include them.
const env = { ...process.env };
delete env.PWD;
const envFile = env.HOSTBASE_ENV_FILE;
delete env.HOSTBASE_ENV_FILE;
if (envFile) {
  let own;
  try {
    own = JSON.parse(fs.readFileSync(envFile, 'utf8'));
  } catch (err) {
    console.error(`[hostbase] could not read the site's environment: ${err.message}`);
    process.exit(78);
  }
  for (const [k, v] of Object.entries(own)) if (!(k in env) && typeof v === 'string') env[k] = v;
}
const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env });
child.on('error', (err) => {
  console.error(`[hostbase] could not start ${command[0]}: ${err.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  if (signal) console.error(`[hostbase] the site process was killed by ${signal}`);
  process.exit(code ?? 128 + (require('node:os').constants.signals[signal] || 9));
});
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(sig, () => {
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 3000).unref();
  });
}

function siteAccepts() {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

async function relayWhenReady() {
  while (!(await siteAccepts())) await new Promise((r) => setTimeout(r, 50));
  try {
    fs.unlinkSync(socketPath);
  } catch {
    /* none yet */
  }
  const server = net.createServer({ pauseOnConnect: true }, (down) => {
    const up = net.connect({ host: '127.0.0.1', port });
    const close = () => {
      down.destroy();
      up.destroy();
    };
    up.once('connect', () => {
      down.pipe(up);
      up.pipe(down);
      down.resume();
    });
    up.on('error', close);
    down.on('error', close);
    up.on('close', close);
    down.on('close', close);
  });
  server.listen(socketPath);
}
relayWhenReady();
