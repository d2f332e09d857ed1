// Starts the platform: listen, and close gracefully on SIGINT/SIGTERM/SIGHUP.
//
// Graceful: the first signal stops accepting connections at once (the port is closed; idle
// keep-alive connections are closed), lets requests in flight finish for up to DRAIN_MS, then cuts
// whatever is left, stops the hosted sites and builds (the hosting module's onClose), gives the
// runner lease back (SITE_RUNNER=lease), closes the database and exits 0.
//
// A Ctrl-C reaches every process of the terminal's foreground group (npm, scripts/start.mjs, this
// server), and start.mjs may forward it again, so signals arrive once, twice or in bursts. The
// first one starts the shutdown; later ones only hurry it (open connections are cut) and never
// skip stopping the hosted sites. Should the shutdown hang, a watchdog stops the sites and exits.
// If this process is killed outright, its sites die with it (the sandbox's --die-with-parent) and
// the next start sweeps what they left (runtime.process.ts). If start.mjs is killed outright, its
// IPC channel closes and this server shuts down as for a Ctrl-C.
// First: the heap's growth is set before the platform's modules load (platform/heap-growth.ts).
import './platform/heap-growth';
import path from 'node:path';
import { loadConfig } from './config';
import { buildApp } from './app';
import { PRIVATE_UMASK } from './platform/data-dir';
import { EnvFileError, loadEnvFile } from './platform/env-file';
import { StartupError } from './platform/errors';
import { loggerOptions } from './platform/log-format';
import { folderProblem, listenProblem } from './platform/startup-problems';

/** Requests in flight get this long to finish after a signal; then their connections are cut. */
const DRAIN_MS = 10_000;
/** Past this the shutdown is stuck: the sites are stopped and the process exits 1. */
const SHUTDOWN_GRACE_MS = 25_000;

async function main() {
  process.umask(PRIVATE_UMASK);
  // `.env` of the directory the platform starts in (npm start: the repository), under the environment.
  loadEnvFile(path.resolve('.env'));
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    // A setting's value is wrong: its message names it, a stack would only hide that.
    throw err instanceof StartupError ? err : new StartupError((err as Error).message);
  }
  const app = await buildApp(config, { logger: loggerOptions(config) });
  let closing: Promise<void> | undefined;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      app.log.warn({ signal }, 'shutting down already: closing open connections now');
      app.server.closeAllConnections?.();
      return;
    }
    app.log.info({ signal }, 'shutting down: no new connections; requests in flight may finish');
    const drain = setTimeout(() => {
      app.log.warn(`requests still in flight after ${DRAIN_MS / 1000} s: closing their connections`);
      app.server.closeAllConnections?.();
    }, DRAIN_MS);
    drain.unref();
    const watchdog = setTimeout(() => {
      app.log.error('shutdown is taking too long: stopping the hosted sites and exiting');
      void app.stopSites().finally(() => process.exit(1));
    }, SHUTDOWN_GRACE_MS);
    closing = app.close().then(
      () => {
        clearTimeout(watchdog);
        clearTimeout(drain);
        app.log.info('shut down');
        process.exit(0);
      },
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        void app.stopSites().finally(() => process.exit(1));
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(signal));
  // Started by scripts/start.mjs (npm start): when it is gone (kill -9), so is the platform.
  if (process.channel) {
    process.on('disconnect', () => shutdown('SIGTERM'));
    process.channel.unref();
  }
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    const problem = listenProblem(err, config.port, config.host);
    if (!problem) throw err;
    // Nothing served yet; what start-up opened (database, timers) closes before the message.
    await Promise.race([app.close().catch(() => undefined), new Promise((r) => setTimeout(r, 5000).unref())]);
    throw problem;
  }
  app.log.info(
    { publicUrl: config.publicUrl, database: config.databaseUrl ? 'postgres' : 'pglite', storage: config.s3 ? 's3' : 'disk', mail: config.smtpUrl ? 'smtp' : 'outbox' },
    `Hostbase is up: ${config.publicUrl} (API ${config.publicUrl}/api, docs ${config.publicUrl}/api/docs)`,
  );
}

main().catch((err) => {
  // A bad .env, a busy port, an unreachable database, a folder this user may not write: the
  // operator's to fix, not a crash: one line naming what to change, without a stack.
  const problem = err instanceof EnvFileError || err instanceof StartupError ? err : folderProblem(err);
  console.error(problem ? `hostbase: ${problem.message}` : err);
  process.exit(1);
});
