// Builds the whole platform from a typed Config: database, adapters, the contract with every
// module's handlers, docs and the web console. Never listens (server.ts does).
//
// Each module is a named plugin (fastify-plugin) declaring the plugins it needs; Fastify refuses
// to start when one is missing or registered after its dependant. Modules expose their services
// as decorations (app.projects, ...) and hand their handlers and verifiers to app.contractParts;
// the contract plugin depends on every module by name.
import path from 'node:path';
import crypto from 'node:crypto';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import type { Config } from './config';
import { openDatabase, type Database } from './db/client';
import { frameworkErrors, refusalOf, registerErrorHandling } from './http/errors';
import { registerValidation } from './http/validation';
import { answerUnrouted, recordRoutes } from './http/allowed-methods';
import { contractPartsPlugin, contractPlugin, MAX_PATH_PARAM_LENGTH } from './http/contract';
import { systemClock, type Clock } from './platform/clock';
import { createJwt } from './platform/jwt';
import { createOutboxMailer, createSmtpMailer, type Mailer } from './platform/mailer';
import { createRateLimiter } from './platform/rate-limit';
import { scheduleHousekeeping } from './housekeeping';
import { removeOthersAccess, secureDataDir } from './platform/data-dir';
import { createPasswordHasher, deriveKey, createSecretBox } from './platform/crypto';
import { accountsPlugin } from './modules/accounts';
import { contactPlugin } from './modules/contact';
import { backupPlugin } from './modules/backup';
import { projectsPlugin } from './modules/projects';
import { hostingPlugin, FrontDoor, type Runtime } from './modules/hosting';
import { domainsPlugin, type DomainsModuleOptions } from './modules/domains';
import { endUsersPlugin } from './modules/end-users';
import { storagePlugin } from './modules/storage';
import { createObjectStore } from './platform/object-store/object-store.factory';
import type { ObjectStore } from './platform/object-store/object-store';
import { systemPlugin } from './modules/system';
import { mailPlugin } from './modules/mail';
import { databasePlugin } from './modules/database';
import { notificationsPlugin } from './modules/notifications';
import { usagePlugin } from './modules/usage';
import { activityPlugin } from './modules/activity';
import { billingPlugin } from './modules/billing';
import { webPlugin } from './http/web';
import { docsPlugin } from './http/docs';
import { onClientError } from './platform/http/connection-limits';
import { securityHeadersPlugin } from './http/security-headers';
import { compressPlugin } from './http/compress';
import { appCorsPlugin } from './http/app-cors';
import type { Deps } from './platform/deps';
import { LookupCache } from './platform/lookup-cache';
import { createAccountEvents } from './platform/account-events';
import { databaseProblem } from './platform/startup-problems';

export interface BuildOptions {
  /** Use this database instead of opening one from the config (tests). */
  database?: Database;
  mailer?: Mailer;
  clock?: Clock;
  /** Use this ObjectStore instead of building one from the config (tests). */
  objectStore?: ObjectStore;
  logger?: boolean | object;
  /** Run hosted sites on this runtime instead of the one the config names (tests). */
  hostingRuntime?: Runtime;
  /** Custom domains: a DNS lookup, certificate issuer or renewal period of the test's own. */
  domains?: DomainsModuleOptions;
}

const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  // Hosted sites' static answers are served in front of Fastify (modules/hosting/edge/front-door.ts).
  // It also carries the slow-client and connection limits (platform/http/connection-limits.ts).
  const frontDoor = new FrontDoor(config.http);
  const app = Fastify({
    serverFactory: frontDoor.serverFactory,
    logger: options.logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    // Request ids travel with every log line; honour an incoming x-request-id from a proxy.
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    bodyLimit: 1024 * 1024,
    // Path parameters up to the contract's longest; a longer one is a 414 in the one error shape.
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    frameworkErrors: frameworkErrors(MAX_PATH_PARAM_LENGTH),
    // We log requests ourselves (onResponse) so every line carries the operationId too.
    logController: new LogController({ disableRequestLogging: true }),
    clientErrorHandler: onClientError,
  });
  frontDoor.logTo(app.log);
  // Before any route exists: a method a path does not take is a 405 naming the ones it does.
  recordRoutes(app);

  // Before anything is written under DATA_DIR (PGlite, outbox, storage): private to the platform.
  const privacy = secureDataDir(config.dataDir);
  if (privacy.repaired) app.log.warn({ dataDir: config.dataDir, repaired: privacy.repaired }, 'DATA_DIR was readable or writable by other users: removed their access');

  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: path.join(config.dataDir, 'pglite'),
      platformStatementTimeoutMs: config.database.platformStatementTimeoutMs,
      // What the engine's refusals of a killed caller's units suggest waiting: the API's first pause.
      pauseAfterKillMs: config.database.cooldownSeconds * 1000,
      log: app.log,
    }).catch((err: unknown) => {
      // Unreachable or refusing: say so naming DATABASE_URL (its password hidden), not pg's stack.
      throw (config.databaseUrl && databaseProblem(config.databaseUrl, err)) || err;
    }));
  if (!options.database) {
    const pgliteDir = path.join(config.dataDir, 'pglite');
    if (!config.databaseUrl) removeOthersAccess(pgliteDir);
    app.addHook('onClose', async () => {
      await database.close();
      if (!config.databaseUrl) removeOthersAccess(pgliteDir);
    });
  }

  const clock = options.clock ?? systemClock;
  const mailer =
    options.mailer ??
    (config.smtpUrl
      ? createSmtpMailer(config.smtpUrl, config.mailFrom)
      : createOutboxMailer(path.join(config.dataDir, 'outbox'), config.mailFrom, app.log));

  const deps: Deps = {
    config,
    database,
    db: database.db,
    clock,
    jwt: createJwt(clock),
    mailer,
    log: app.log,
    rateLimiter: createRateLimiter(database, clock),
    passwords: createPasswordHasher(config.passwordHashCost),
    secrets: createSecretBox(deriveKey(config.jwtSecret, 'secret-box')),
    objectStore: options.objectStore ?? (await createObjectStore({ dataDir: config.dataDir, s3: config.s3 })),
    lookups: new LookupCache(database, app.log),
    events: createAccountEvents(app.log),
  };
  app.decorate('deps', deps);
  // Not listening, the cache serves nothing from memory: slower, never stale.
  await deps.lookups.start().catch((err: Error) => app.log.warn({ err }, 'lookup notices: not listening; every key and token is read from the database'));
  app.addHook('onClose', () => deps.lookups.stop().catch(() => undefined));

  registerErrorHandling(app);
  registerValidation(app);
  await app.register(contractPartsPlugin);
  await app.register(accountsPlugin);
  await app.register(projectsPlugin);
  // The hosting gateway's hook is the first onRequest hook: a request for a site's Host never
  // reaches the API or the console (the security headers plugin depends on this one).
  // Custom domains first: a verified custom Host is handed to the gateway as its site's own name.
  await app.register(domainsPlugin, options.domains ?? {});
  await app.register(hostingPlugin, { frontDoor, runtime: options.hostingRuntime });
  await app.register(securityHeadersPlugin);
  await app.register(compressPlugin);
  app.addHook('onRequest', async (req, reply) => {
    const operationId = req.routeOptions.config?.operationId;
    if (operationId) {
      req.log = req.log.child({ operationId });
      reply.log = req.log;
    }
  });
  // After the hosting gateway's hook (a site's Host is the site's, whatever its method): a request
  // no route took is a 405 or 404 before its body is read; the console's pages pass on to web.ts.
  app.addHook('onRequest', answerUnrouted(app, (req) => !!config.webDir && (req.method === 'GET' || req.method === 'HEAD') && !isApiPath(req.url)));
  app.addHook('onResponse', async (req, reply) => {
    // What is polled (x-quiet-log in the contract) would fill the log at info: debug, unless it failed.
    const quiet = req.routeOptions.config?.quietLog === true && reply.statusCode < 400;
    const fields = { method: req.method, url: req.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10, ...refusalOf(req) };
    req.log[quiet ? 'debug' : 'info'](fields, 'request completed');
  });

  await app.register(fastifyMultipart, {
    limits: { fileSize: config.maxUploadBytes, files: 1, fields: 20, fieldSize: 64 * 1024 },
  });
  await app.register(endUsersPlugin);
  // One CORS policy for the app-facing APIs, from the allowed origins of the auth settings.
  await app.register(appCorsPlugin, { origins: app.endUsers });
  await app.register(storagePlugin);
  await app.register(mailPlugin);
  await app.register(databasePlugin);
  await app.register(usagePlugin);
  await app.register(activityPlugin);
  await app.register(contactPlugin);
  await app.register(backupPlugin);
  await app.register(notificationsPlugin);
  await app.register(billingPlugin);
  await app.register(systemPlugin);
  await app.register(contractPlugin);
  await app.register(docsPlugin, { config });
  await app.register(webPlugin, { config });

  scheduleHousekeeping(app, deps);
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
  }
}
