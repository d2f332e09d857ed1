// Hosted sites' runtime logs live in the database (runtime-logs.ts; the instance that runs a
// site is not always the one asked): any instance reads
// what another wrote, each deployment's log keeps only its last LOG_TAIL characters, and output
// for a deployment that is gone is dropped without an error.
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, deploy } from '../helpers/factories';
import { makeZip } from './zips';
import { DatabaseLogs, LOG_TAIL } from '../../server/src/modules/hosting/runtime/runtime-logs';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function aDeployment(): Promise<{ projectId: string; deploymentId: string; token: string }> {
  const p = await createProject(t);
  const res = await deploy(t, p, makeZip([{ name: 'index.html', data: '<p>hi</p>' }]), 'Static');
  expect(res.statusCode).toBe(200);
  return { projectId: p.id, deploymentId: res.json().deployment.id, token: p.dev.token };
}

test('one instance writes, another reads; the API shows it', async () => {
  const { projectId, deploymentId, token } = await aDeployment();
  const writer = new DatabaseLogs(t.database, t.app.log);
  writer.append(deploymentId, 'listening on 8080\n');
  writer.append(deploymentId, 'GET /\n');
  await writer.close();
  const reader = new DatabaseLogs(t.database, t.app.log);
  expect(await reader.read(deploymentId)).toBe('listening on 8080\nGET /\n');
  const api = await t.post(`/project/${projectId}/deployments/${deploymentId}/logs`, {}, token);
  expect(api.statusCode).toBe(200);
  expect(api.json().runtime_log).toBe('listening on 8080\nGET /\n');
  // Another account sees nothing of it.
  const stranger = await createProject(t);
  const refused = await t.post(`/project/${projectId}/deployments/${deploymentId}/logs`, {}, stranger.dev.token);
  expect([403, 404]).toContain(refused.statusCode);
  expect(refused.body).not.toContain('listening');
});

test('a log keeps its last 64 KiB, in one write and across writes', async () => {
  const { deploymentId } = await aDeployment();
  const logs = new DatabaseLogs(t.database, t.app.log);
  const line = (i: number) => `line ${String(i).padStart(6, '0')} ${'x'.repeat(40)}\n`;
  const first = Array.from({ length: 2000 }, (_, i) => line(i)).join(''); // ~100 KiB in one flush
  logs.append(deploymentId, first);
  await logs.flush();
  let text = await logs.read(deploymentId);
  expect(text.length).toBe(LOG_TAIL);
  expect(text.endsWith(line(1999))).toBe(true);
  expect(text).not.toContain(line(0));
  logs.append(deploymentId, 'the newest line\n');
  text = await logs.read(deploymentId);
  expect(text.length).toBe(LOG_TAIL);
  expect(text.endsWith(line(1999) + 'the newest line\n')).toBe(true);
  await logs.close();
});

test('output for a deployment that no longer exists is dropped quietly', async () => {
  const logs = new DatabaseLogs(t.database, t.app.log);
  logs.append('00000000-0000-4000-8000-000000000000', 'orphan\n');
  await expect(logs.flush()).resolves.toBeUndefined();
  expect(await logs.read('00000000-0000-4000-8000-000000000000')).toBe('');
  await logs.close();
});
