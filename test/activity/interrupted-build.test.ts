// A build that died with its instance is failed by the next instance to start (build-lifecycle.ts):
// that failed deploy lands in its project's errors too.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject } from '../helpers/factories';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

test("an instance starting fails a dead build and it shows in the project's errors (medium)", async () => {
  const p = await createProject(t);
  await t.database.query(
    `INSERT INTO site_deployments (project_id, type, status, builder, heartbeat_at) VALUES ($1, 'Static', 'building', 'gone-instance', now() - interval '10 minutes')`,
    [p.id],
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-other-'));
  const config = { ...loadConfig({ DATA_DIR: dir, JWT_SECRET: 'x', LOG_LEVEL: 'silent', PASSWORD_HASH_COST: '12' }), webDir: undefined };
  const other = await buildApp(config, { database: t.database, objectStore: t.app.deps.objectStore, logger: false });
  try {
    await other.ready();
    const { errors } = (await t.post(`/project/${p.id}/errors`, {}, p.dev.token)).json();
    expect(errors).toEqual([expect.objectContaining({ kind: 'deploy_failed', severity: 'medium', message: 'A deployment failed: interrupted by a restart.' })]);
  } finally {
    await other.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
