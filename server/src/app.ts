// Builds the whole platform from a typed Config: database, adapters, the contract with every
// module's handlers, docs and the web console. Never listens (server.ts does).
import path from 'node:path';
import crypto from 'node:crypto';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import YAML from 'yaml';
import type { Config } from './config';
import { openDatabase, type Database } from './db/client';
import { frameworkErrors, registerErrorHandling } from './http/errors';
import { registerValidation } from './http/validation';
import { registerContract, loadSpec, missingHandlers, MAX_PATH_PARAM_LENGTH } from './http/contract';
import type { HandlerMap } from './http/types';
import { systemClock, type Clock } from './lib/clock';
import { createJwt } from './lib/jwt';
import { createOutboxMailer, createSmtpMailer, type Mailer } from './lib/mailer';
import { createRateLimiter } from './lib/rate-limit';
import { scheduleHousekeeping } from './lib/housekeeping';
import { removeOthersAccess, secureDataDir } from './lib/data-dir';
import { createPasswordHasher, deriveKey, createSecretBox } from './lib/crypto';
import { createAccountsModule } from './modules/accounts/accounts.module';
import { createContactHandlers } from './modules/contact/contact.handlers';
import { createProjectsModule } from './modules/projects/projects.module';
import { createHostingModule } from './modules/hosting/hosting.module';
import { FrontDoor } from './modules/hosting/front-door';
import type { Runtime } from './modules/hosting/runtime';
import { createAuthUsersModule } from './modules/auth-users/auth-users.module';
import { createStorageModule } from './modules/storage/storage.module';
import { createObjectStore } from './modules/storage/object-store.factory';
import type { ObjectStore } from './modules/storage/object-store';
import { createSystemHandlers } from './modules/system/system.handlers';
import { createSmtpModule } from './modules/smtp/smtp.module';
import { registerWeb } from './http/web';
import { onClientError } from './http/connection-limits';
import { registerSecurityHeaders, docsSecurityHeaders } from './http/security-headers';
import type { Deps } from './deps';

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
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  // Hosted sites' static answers are served in front of Fastify (modules/hosting/front-door.ts).
  // It also carries the slow-client and connection limits (http/connection-limits.ts).
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

  // Before anything is written under DATA_DIR (PGlite, outbox, storage): private to the platform.
  const privacy = secureDataDir(config.dataDir);
  if (privacy.repaired) app.log.warn({ dataDir: config.dataDir, repaired: privacy.repaired }, 'DATA_DIR was readable or writable by other users: removed their access');

  const database =
    options.database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') }));
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
  };
  app.decorate('deps', deps);

  registerErrorHandling(app);
  registerValidation(app);
  // The hosting gateway's hook comes first: a request for a site's Host never reaches the API or the console.
  const hosting = createHostingModule(app, deps, { frontDoor, runtime: options.hostingRuntime });
  // After the gateway's hook: hosted sites keep their own headers.
  registerSecurityHeaders(app);
  app.addHook('onRequest', async (req, reply) => {
    const operationId = req.routeOptions.config?.operationId;
    if (operationId) {
      req.log = req.log.child({ operationId });
      reply.log = req.log;
    }
  });
  app.addHook('onResponse', async (req, reply) => {
    req.log.info({ method: req.method, url: req.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 }, 'request completed');
  });

  await app.register(fastifyMultipart, {
    limits: { fileSize: config.maxUploadBytes, files: 1, fields: 20, fieldSize: 64 * 1024 },
  });

  const accounts = createAccountsModule(deps);
  app.decorate('jwt', accounts.tokens);
  const projects = createProjectsModule(deps);
  hosting.attachProjects(projects.service);
  const authUsers = createAuthUsersModule(deps, projects.service);
  const storage = createStorageModule(deps, projects.service);
  const handlers: HandlerMap = {
    ...createSystemHandlers(deps),
    ...accounts.handlers,
    ...projects.handlers,
    ...authUsers.handlers,
    ...storage.handlers,
    ...hosting.handlers,
    ...createSmtpModule(deps, projects.service).handlers,
    ...createContactHandlers(deps),
  };
  // Before the contract: its onSend hook must see the /api/auth/v1 routes.
  await app.register(authUsers.cors);
  await registerContract(app, { handlers, verifiers: { ...accounts.verifiers, ...projects.verifiers, ...authUsers.verifiers } });
  await app.register(storage.shareLinkRoutes);
  registerDocs(app, config);
  await registerWeb(app, config);

  app.decorate('operationsWithoutHandler', missingHandlers(handlers));
  scheduleHousekeeping(app, deps);
  return app;
}

function registerDocs(app: FastifyInstance, config: Config) {
  // Parsed and serialised once at start, not per request.
  const spec = loadSpec();
  const specYaml = YAML.stringify(spec);
  const specJson = JSON.stringify(spec);
  app.get('/api/openapi.yaml', async (_req, reply) => reply.type('application/yaml; charset=utf-8').send(specYaml));
  app.get('/api/openapi.json', async (_req, reply) => reply.type('application/json; charset=utf-8').send(specJson));
  // Swagger UI served from the npm package's own assets, pointed at our spec.
  app.register(async (instance) => {
    const { default: swagger } = await import('@fastify/swagger');
    const { default: swaggerUi } = await import('@fastify/swagger-ui');
    await instance.register(swagger, { mode: 'static', specification: { document: loadSpec() as never } });
    await docsSecurityHeaders(instance, config);
    await instance.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { url: '/api/openapi.json', validatorUrl: null } as never });
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
    /** Contract operations that answer 501 until a module implements them. */
    operationsWithoutHandler: string[];
  }
}
