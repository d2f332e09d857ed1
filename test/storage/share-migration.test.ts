// A file shared before files became private (migrations/0027) still answers at its share link:
// a database migrated up to 0026 gets a project and a file with its segment, then the platform
// starts on it (applying 0027 as any start does) and serves the old link; no folder became
// public, and an app-made signed link of an end user is that user's from then on.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { openDatabase, type Database } from '../../server/src/db/client';
import { listMigrations, runMigrations } from '../../server/src/db/migrate';
import { testDriver, urlWithDatabase } from '../helpers/test-db';

jest.setTimeout(120_000);

const BEFORE = '0027_private_files.sql';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-share-migration-'));
let database: Database | undefined;
let dropDatabase = async () => undefined as void;

/** A new, empty database: a PostgreSQL database of its own, or an in-memory PGlite. */
async function emptyDatabase(): Promise<{ open: (migrate: boolean) => Promise<Database> }> {
  if (testDriver() === 'pglite') {
    const db = await openDatabase({ pgliteDir: 'memory://', migrate: false });
    return { open: async (migrate) => (migrate && (await db.migrate()), db) };
  }
  const name = `hostbase_mig_${crypto.randomBytes(6).toString('hex')}`;
  const admin = await openDatabase({ databaseUrl: process.env.DATABASE_URL, migrate: false, poolSize: 1 });
  await admin.query(`CREATE DATABASE ${name}`).finally(() => admin.close());
  dropDatabase = async () => {
    const a = await openDatabase({ databaseUrl: process.env.DATABASE_URL, migrate: false, poolSize: 1 });
    await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => a.close());
  };
  // One connection for the old migrations (their advisory lock is per session); the platform's
  // own pool, which migrates on opening, afterwards.
  return { open: (migrate) => openDatabase({ databaseUrl: urlWithDatabase(process.env.DATABASE_URL!, name), migrate, poolSize: migrate ? 5 : 1 }) };
}

afterAll(async () => {
  await database?.close();
  await dropDatabase();
  fs.rmSync(work, { recursive: true, force: true });
});

test('the share link of a file stored before 0027 keeps working once the platform starts on the new schema', async () => {
  // The schema as it was: every migration before this one.
  const oldDir = path.join(work, 'migrations');
  fs.mkdirSync(oldDir);
  for (const m of listMigrations()) if (m.name < BEFORE) fs.writeFileSync(path.join(oldDir, m.name), m.sql);
  expect(listMigrations().map((m) => m.name)).toContain(BEFORE);
  const empty = await emptyDatabase();
  const old = await empty.open(false);
  await runMigrations(old.exec, old.query, oldDir);

  const objectId = crypto.randomUUID();
  const segment = crypto.randomBytes(18).toString('base64url');
  const [account] = await old.query<{ id: string }>(`INSERT INTO accounts (name, email, email_normalized, password_hash) VALUES ('Old', 'old@example.com', 'old@example.com', 'h') RETURNING id`);
  const [project] = await old.query<{ id: string }>(`INSERT INTO projects (owner_id, name, subdomain, bucket_id) VALUES ($1, 'Old', 'oldshare', 'oldshare-bucket') RETURNING id`, [account!.id]);
  const projectId = project!.id;
  const storageKey = `projects/${projectId}/objects/${objectId}`;
  await old.query(
    `INSERT INTO storage_objects (object_id, project_id, storage_key, name, object_type, object_size, etag, share_segment, folder)
     VALUES ($1, $2, $3, 'old.txt', 'text/plain', 9, 'e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0', $4, 'docs')`,
    [objectId, projectId, storageKey, segment],
  );
  await old.query(`INSERT INTO storage_rules (project_id, folder, access) VALUES ($1, 'docs', 'read')`, [projectId]);
  const [user] = await old.query<{ id: string }>(`INSERT INTO end_users (project_id, email, email_normalized, password_hash) VALUES ($1, 'u@example.com', 'u@example.com', 'h') RETURNING id`, [projectId]);
  await old.query(
    `INSERT INTO storage_signed_links (id, project_id, object_id, token_hash, created_by, expires_at) VALUES ($1, $2, $3, 'a', $4, now() + interval '1 day'), ($5, $2, $3, 'b', NULL, now() + interval '1 day')`,
    [crypto.randomUUID(), projectId, objectId, user!.id, crypto.randomUUID()],
  );
  if (testDriver() === 'postgres') await old.close();

  // The platform starts: pending migrations are applied on opening.
  database = await empty.open(true);
  const [applied] = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations WHERE name = $1', [BEFORE]);
  expect(applied!.n).toBe(1);
  const config = loadConfig({ DATA_DIR: path.join(work, 'data'), JWT_SECRET: 'migration-test', PUBLIC_URL: 'http://localhost:3000', LOG_LEVEL: 'silent', SITE_RUNNER: 'local' });
  const app = await buildApp({ ...config, webDir: undefined }, { database, logger: false });
  try {
    await app.ready();
    await app.deps.objectStore.put(storageKey, Readable.from([Buffer.from('old bytes')]), { contentType: 'text/plain' });

    for (const prefix of ['', '/api']) {
      const res = await app.inject({ method: 'GET', url: `${prefix}/s3/object-storage/${segment}/${objectId}` });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('old bytes');
    }
    // A wrong segment is still a 404; nothing became public.
    expect((await app.inject({ method: 'GET', url: `/s3/object-storage/${segment.slice(1)}x/${objectId}` })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/storage/v1/object/public/${objectId}` })).statusCode).toBe(404);
    expect(await database.query('SELECT folder, access, public FROM storage_rules WHERE project_id = $1', [projectId])).toEqual([{ folder: 'docs', access: 'read', public: false }]);
    const links = await database.query<{ created_by: string | null; issuer: string }>('SELECT created_by, issuer FROM storage_signed_links WHERE project_id = $1 ORDER BY token_hash', [projectId]);
    expect(links).toEqual([
      { created_by: user!.id, issuer: 'user' },
      { created_by: null, issuer: 'developer' },
    ]);
  } finally {
    await app.close();
  }
});
