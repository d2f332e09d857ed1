// Builds the migrated template once per test run (see test-db.ts).
import fs from 'node:fs';
import { openDatabase } from '../../server/src/db/client';
import { pgliteTemplateFile, templateName, testDriver, urlWithDatabase } from './test-db';

export default async function globalSetup(): Promise<void> {
  if (testDriver() === 'postgres') {
    const url = process.env.DATABASE_URL!;
    const admin = await openDatabase({ databaseUrl: url, migrate: false, poolSize: 1 });
    const name = templateName();
    try {
      const exists = await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name]);
      if (exists.length) return;
      await admin.query(`CREATE DATABASE ${name}`);
    } finally {
      await admin.close();
    }
    const tmpl = await openDatabase({ databaseUrl: urlWithDatabase(url, name), poolSize: 1 });
    await tmpl.close();
    return;
  }
  const file = pgliteTemplateFile();
  if (fs.existsSync(file)) return;
  const db = await openDatabase({ pgliteDir: 'memory://' });
  const dump = await db.dump!();
  fs.writeFileSync(file + '.tmp', Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(file + '.tmp', file);
  await db.close();
}
