// buildTestApp(): the real app on a fresh database, the real outbox mailer in a temp dir.
// Three lines of set-up per API test (fastify/demo's habit).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildOptions } from '../../server/src/app';
import { loadConfig, type Config } from '../../server/src/config';
import type { Database } from '../../server/src/db/client';
import { createTestDatabase } from './test-db';
import { readOutbox, type OutboxMail } from './outbox';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  dataDir: string;
  outbox(): OutboxMail[];
  /** POST JSON to /api{path}, with a bearer token when given. */
  post(path: string, body?: unknown, token?: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function buildTestApp(env: Record<string, string> = {}, options: BuildOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-' + path.basename(dataDir),
    PUBLIC_URL: 'http://localhost:3000',
    PASSWORD_HASH_COST: '12',
    LOG_LEVEL: 'silent',
    // In-process apps never listen, so none can be another's runner (test/instances/ runs real ones).
    SITE_RUNNER: 'local',
    ...env,
  });
  const { database, drop } = await createTestDatabase();
  const app = await buildApp({ ...config, webDir: undefined }, { database, logger: false, ...options });
  await app.ready();
  return {
    app,
    database,
    config,
    dataDir,
    outbox: () => readOutbox(path.join(dataDir, 'outbox')),
    post: (p, body, token, headers = {}) =>
      app.inject({
        method: 'POST',
        url: '/api' + p,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
        ...(body === undefined ? {} : { payload: body as object }),
      }),
    close: async () => {
      await app.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// Factories live in ./factories; re-exported here for the tests that import them with the app.
export { registerDeveloper, type Developer } from './factories';

/**
 * A second instance of the platform on the test app's database, as a second server behind a load
 * balancer: on PostgreSQL with connections of its own, on PGlite on the one embedded database.
 * close() stops it (and its connections).
 */
export async function secondInstance(t: TestApp, poolSize = 5): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const { openDatabase } = await import('../../server/src/db/client');
  const { testDriver, urlWithDatabase } = await import('./test-db');
  let database = t.database;
  let own: Database | undefined;
  if (testDriver() === 'postgres') {
    const [{ name }] = await t.database.query<{ name: string }>('SELECT current_database() AS name');
    database = own = await openDatabase({ databaseUrl: urlWithDatabase(process.env.DATABASE_URL!, name), migrate: false, poolSize });
  }
  const app = await buildApp({ ...t.config, webDir: undefined }, { database, logger: false });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      await own?.close();
    },
  };
}
