// streamDeploymentLog over real sockets (closing a stream is a client going away), on a
// deployment row this test writes itself (no build, no sandbox): the streams of one deployment
// share one poll loop that reads only what is new, a late joiner still gets the log from its
// start, non-ASCII text arrives exactly, and open streams are capped per account (429).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, type Project } from '../helpers/factories';
import { HostingRepository, type BuildLogPart } from '../../server/src/modules/hosting/hosting.repository';
import { BUILD_LOG_LIMITS } from '../../server/src/modules/hosting/build/build-log-stream';

let t: TestApp;
let port: number;
let a: Project;
let b: Project;
let repo: HostingRepository;

/** Every read of the real repository's buildLogPart, in the order they completed. */
const reads: { id: string; from: number; upTo?: number; length?: number }[] = [];
const realRead = HostingRepository.prototype.buildLogPart;

beforeAll(async () => {
  jest.spyOn(HostingRepository.prototype, 'buildLogPart').mockImplementation(async function (this: HostingRepository, projectId: string, id: string, from: number, upTo?: number): Promise<BuildLogPart | undefined> {
    const part = await realRead.call(this, projectId, id, from, upTo);
    reads.push({ id, from, upTo, length: part?.length });
    return part;
  });
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  a = await createProject(t);
  b = await createProject(t);
  repo = new HostingRepository(t.database);
}, 60_000);
afterAll(async () => {
  jest.restoreAllMocks();
  await t?.close();
}, 30_000);

interface Stream {
  status: number;
  body: string;
  closed: Promise<void>;
  close(): void;
}

function open(p: Project, id: string, token = p.dev.token): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: `/api/project/${p.id}/deployments/${id}/log-stream`, headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
      res.setEncoding('utf8'); // a character split between two chunks is decoded once
      const s: Stream = { status: res.statusCode ?? 0, body: '', closed: new Promise((r) => res.once('close', () => r())), close: () => req.destroy() };
      res.on('data', (chunk: string) => (s.body += chunk));
      res.on('error', () => undefined); // closed by the test
      resolve(s);
    });
    req.on('error', reject);
  });
}

function events(s: Stream): { event: string; data: { text?: string; status?: string; error?: string | null } }[] {
  return s.body
    .split('\n\n')
    .filter((f) => f.startsWith('event:'))
    .map((f) => ({ event: /^event: (.*)$/m.exec(f)![1], data: JSON.parse(/^data: (.*)$/m.exec(f)![1]) }));
}
const logOf = (s: Stream) => events(s).filter((e) => e.event === 'log').map((e) => e.data.text).join('');

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 20));
}

/** A 'building' deployment held by another (pretend) instance, so no worker here takes or fails it. */
async function building(p: Project): Promise<string> {
  return (await repo.createDeployment(p.id, 'Static', 'another-instance')).id;
}
const append = (id: string, text: string) => repo.appendBuildLog(id, text);
const finish = (id: string) => t.database.query(`UPDATE site_deployments SET status = 'failed', error = 'stopped by the test' WHERE id = $1`, [id]);

test('the streams of one deployment share one poll loop; a late joiner and non-ASCII text get the exact log', async () => {
  const id = await building(a);
  const first = '🚀 build started — ünïcødé 日本語\n';
  const second = 'step 2 👩‍💻 emoji 𝄞 done\n';
  await append(id, first);

  const early = await Promise.all(Array.from({ length: 10 }, () => open(a, id)));
  expect(early.map((s) => s.status)).toEqual(Array(10).fill(200));
  expect(t.app.buildLogStreams.size).toBe(10);
  expect(t.app.buildLogStreams.polling).toBe(1);
  await until(() => early.every((s) => logOf(s) === first));

  // Joins after the loop sent the first piece: it reads that part once, then follows the loop.
  const late = await open(a, id);
  expect(late.status).toBe(200);
  await until(() => logOf(late) === first);
  expect(t.app.buildLogStreams.polling).toBe(1);

  await append(id, second);
  await until(() => [...early, late].every((s) => logOf(s) === first + second));
  await finish(id);
  await Promise.all([...early, late].map((s) => s.closed));
  for (const s of [...early, late]) {
    expect(logOf(s)).toBe(first + second);
    expect(events(s).at(-1)).toEqual({ event: 'end', data: { status: 'failed', error: 'stopped by the test' } });
  }
  await until(() => t.app.buildLogStreams.size === 0);
  expect(t.app.buildLogStreams.polling).toBe(0);

  // One chain of polls, each from where the last one ended: not one per stream, and never the whole log again.
  const polls = reads.filter((r) => r.id === id && r.upTo === undefined);
  expect(polls.length).toBeGreaterThanOrEqual(3);
  expect(polls[0].from).toBe(0);
  for (let i = 1; i < polls.length; i++) expect(polls[i].from).toBe(Math.max(polls[i - 1].from, polls[i - 1].length!));
  expect(polls.at(-1)!.from).toBeGreaterThan(0);
  // Streams that joined after the first poll (the late one at least) read what they missed once each, up to the loop's offset.
  const catchUps = reads.filter((r) => r.id === id && r.upTo !== undefined && r.upTo > 0);
  expect(catchUps.length).toBeGreaterThanOrEqual(1);
  expect(catchUps.length).toBeLessThanOrEqual(11);
  for (const r of catchUps) expect(r).toMatchObject({ from: 0, upTo: polls[0].length });
});

test('a finished deployment replays its whole log and ends; an unknown one is a 404', async () => {
  const id = await building(a);
  await append(id, 'ü🙂\n');
  await finish(id);
  const s = await open(a, id);
  await s.closed;
  expect(logOf(s)).toBe('ü🙂\n');
  expect(events(s).at(-1)?.event).toBe('end');
  const missing = await open(a, '00000000-0000-4000-8000-000000000000');
  await missing.closed;
  expect(missing.status).toBe(404);
  // Another account can't follow this project's deployment.
  const foreign = await open(a, id, b.dev.token);
  await foreign.closed;
  expect(foreign.status).toBe(404);
});

test('open streams are capped per account (429), another account is not affected, and closing one frees its place', async () => {
  const cap = BUILD_LOG_LIMITS.perAccount;
  const id = await building(a);
  const other = await building(b);
  const mine = await Promise.all(Array.from({ length: cap }, () => open(a, id)));
  expect(mine.every((s) => s.status === 200)).toBe(true);

  const refused = await open(a, id);
  await refused.closed;
  expect(refused.status).toBe(429);
  expect(JSON.parse(refused.body).message).toBe(`You have ${cap} build-log streams open on this server; close one or try again later`);

  const theirs = await open(b, other);
  expect(theirs.status).toBe(200);

  mine[0].close();
  await until(() => t.app.buildLogStreams.size === cap); // cap - 1 of a's, 1 of b's
  const again = await open(a, id);
  expect(again.status).toBe(200);

  // The build's end closes every stream and frees every place.
  await Promise.all([finish(id), finish(other)]);
  await Promise.all([...mine.slice(1), again, theirs].map((s) => s.closed));
  await until(() => t.app.buildLogStreams.size === 0);
  expect(t.app.buildLogStreams.polling).toBe(0);
  const afterwards = await open(a, id);
  await afterwards.closed;
  expect(afterwards.status).toBe(200);
});
