// Housekeeping runs every table door's sweep: each deletes its table's rows a day past use and
// keeps the live ones (test/db.test.ts covers rate limits and account tokens the same way).
import { runHousekeeping, SWEEPS } from '../server/src/housekeeping';
import { createTestDatabase } from './helpers/test-db';

jest.setTimeout(60_000);

test('the sweeps of instances and end users\' tokens delete old rows and keep live ones', async () => {
  const tdb = await createTestDatabase();
  try {
    const db = tdb.database;
    await db.query(`INSERT INTO platform_instances (id, seen_at) VALUES ('gone', now() - interval '2 days'), ('live', now())`);
    const [acc] = await db.query<{ id: string }>(
      `INSERT INTO accounts (name, email, email_normalized, password_hash) VALUES ('A', 'k@x.io', 'k@x.io', 'h') RETURNING id`,
    );
    const [project] = await db.query<{ id: string }>(
      `INSERT INTO projects (owner_id, name, subdomain, bucket_id) VALUES ($1, 'P', 'sweep-test', 'sweep-test-bucket') RETURNING id`,
      [acc.id],
    );
    const [user] = await db.query<{ id: string }>(
      `INSERT INTO end_users (project_id, email, email_normalized, password_hash) VALUES ($1, 'u@x.io', 'u@x.io', 'h') RETURNING id`,
      [project.id],
    );
    await db.query(
      `INSERT INTO end_user_tokens (user_id, kind, token_hash, expires_at)
       VALUES ($1, 'password_reset', 'old', now() - interval '2 days'), ($1, 'password_reset', 'new', now() + interval '1 hour')`,
      [user.id],
    );
    await runHousekeeping({ database: db });
    expect((await db.query<{ id: string }>('SELECT id FROM platform_instances')).map((r) => r.id)).toEqual(['live']);
    expect((await db.query<{ token_hash: string }>('SELECT token_hash FROM end_user_tokens')).map((r) => r.token_hash)).toEqual(['new']);
    expect(SWEEPS.map((s) => s.name)).toEqual(['rate limit windows', 'account tokens', 'end user tokens', 'end user refresh tokens', 'platform instances']);
  } finally {
    await tdb.drop();
  }
});
