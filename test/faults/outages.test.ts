// Outages of what the platform stands on, each with the real thing: a full disk (a small tmpfs
// as DATA_DIR/storage), S3 down (s3rver stopped, then started again on its port) and PostgreSQL
// out of reach (a TCP proxy between the app and PostgreSQL, cut and restored: the shared cluster
// is never restarted, so parallel tests are not disturbed). Each answers 503 with a message (never
// a 500, nothing half-written) and the same process serves again once the outage ends.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { openDatabase } from '../../server/src/db/client';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, testDriver, urlWithDatabase } from '../helpers/test-db';
import { developerWithProject, rowCount, shareFile, storedFiles, upload } from '../storage/helpers';

jest.setTimeout(90_000);

// s3rver is CommonJS without types; this is the little of it used here.
const S3rver = require('s3rver') as new (opts: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };

const isRoot = process.getuid?.() === 0;

const fileOf = (bytes: number, name = 'f.bin') => [{ name, type: 'application/octet-stream', content: Buffer.alloc(bytes, 7) }];

function expectOutage(res: { statusCode: number; json(): { message: string; code: string } }, text: RegExp) {
  expect(res.statusCode).toBe(503);
  expect(res.json()).toEqual({ code: 'UNAVAILABLE', message: expect.stringMatching(text) });
}

(isRoot ? describe : describe.skip)('a full disk (needs root to mount a tmpfs)', () => {
  let t: TestApp;
  let mount: string;
  beforeAll(async () => {
    t = await buildTestApp({ MAX_UPLOAD_BYTES: String(4 << 20) });
    mount = path.join(t.dataDir, 'storage');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m,mode=0700', 'tmpfs', mount]);
    for (const d of ['objects', 'meta', 'tmp']) fs.mkdirSync(path.join(mount, d));
  });
  afterAll(async () => {
    if (mount) execFileSync('umount', ['-l', mount]);
    await t?.close();
  });

  test('an upload that does not fit answers 503 with a message, keeps nothing, and uploads work again once there is room', async () => {
    const { dev, project } = await developerWithProject(t);
    const filler = path.join(mount, 'filler');
    fs.writeFileSync(filler, Buffer.alloc((2 << 20) - 64 * 1024));

    const full = await upload(t, dev.token, project.id, fileOf(256 * 1024));
    expectOutage(full, /disk is full/);
    expect(full.headers['retry-after']).toBeDefined();
    expect(await rowCount(t, project.id)).toBe(0);
    expect(storedFiles(t)).toEqual(['filler']);

    // Room again: the same process takes the same upload.
    fs.rmSync(filler);
    const ok = await upload(t, dev.token, project.id, fileOf(256 * 1024));
    expect(ok.statusCode).toBe(200);
    expect(await rowCount(t, project.id)).toBe(1);
  });
});

describe('S3 down', () => {
  let t: TestApp;
  let dir: string;
  let s3: InstanceType<typeof S3rver> | undefined;
  let port: number;
  const startS3 = async (p = 0) => {
    s3 = new S3rver({ address: '127.0.0.1', port: p, directory: path.join(dir, 's3'), silent: true });
    return (await s3.run()).port;
  };
  const stopS3 = async () => {
    const running = s3;
    s3 = undefined;
    await running?.close();
  };
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-s3-outage-'));
    port = await startS3();
    t = await buildTestApp({ S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_ACCESS_KEY: 'S3RVER', S3_SECRET_KEY: 'S3RVER', S3_BUCKET: 'hostbase-outage' });
  });
  afterAll(async () => {
    await t?.close();
    await stopS3();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('uploads and downloads answer 503 with a message while S3 is down; listings still work; all works again when it is back', async () => {
    const { dev, project } = await developerWithProject(t);
    const before = await upload(t, dev.token, project.id, fileOf(1000, 'before.bin'));
    expect(before.statusCode).toBe(200);
    const link = await shareFile(t, dev.token, project.id, before.json().file.object_id);

    await stopS3();
    const down = await upload(t, dev.token, project.id, fileOf(1000, 'during.bin'));
    expectOutage(down, /cannot be reached/);
    const dl = await t.app.inject({ method: 'GET', url: link });
    expectOutage(dl as never, /cannot be reached/);
    // What lives in the database still answers, and the failed upload left no row.
    const listed = await t.post(`/project/${project.id}/object-storage/files`, {}, dev.token);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().files.map((f: { metadata: string }) => JSON.parse(f.metadata).name)).toEqual(['before.bin']);

    await startS3(port);
    const after = await upload(t, dev.token, project.id, fileOf(1000, 'after.bin'));
    expect(after.statusCode).toBe(200);
    const again = await t.app.inject({ method: 'GET', url: link });
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.length).toBe(1000);
    expect(await rowCount(t, project.id)).toBe(2);
  });
});

/** A TCP proxy to PostgreSQL that can be cut (every connection dropped, new ones refused) and restored. */
async function pgProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let cut = false;
  const server = net.createServer((client) => {
    if (cut) return client.destroy();
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      cut = true;
      for (const s of sockets) s.destroy();
    },
    restore() {
      cut = false;
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

(testDriver() === 'postgres' ? describe : describe.skip)('PostgreSQL out of reach (a TCP proxy cut and restored)', () => {
  test('requests answer 503 with a message during the outage and the same process serves again after it', async () => {
    const tdb = await createTestDatabase();
    const target = new URL(process.env.DATABASE_URL!);
    const proxy = await pgProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(urlWithDatabase(process.env.DATABASE_URL!, tdb.name));
    viaProxy.port = String(proxy.port);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-pg-outage-'));
    const database = await openDatabase({ databaseUrl: viaProxy.toString(), migrate: false, poolSize: 3 });
    const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'test-secret-pg-outage', PUBLIC_URL: 'http://localhost:3000', PASSWORD_HASH_COST: '12', LOG_LEVEL: 'silent' });
    const app = await buildApp({ ...config, webDir: undefined }, { database, logger: false });
    try {
      const post = (p: string, body: unknown, token?: string) =>
        app.inject({ method: 'POST', url: `/api${p}`, payload: body as object, headers: token ? { authorization: `Bearer ${token}` } : {} });
      const reg = await post('/register', { name: 'Dee', email: 'dee@example.com', password: 'correct horse battery' });
      expect(reg.statusCode).toBe(200);
      const token = reg.json().token as string;
      const created = await post('/create-project', { projectName: 'Outage', subdomain: 'outage-app' }, token);
      expect(created.statusCode).toBe(200);

      proxy.cut();
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(503);
      const during = await post('/projects', {}, token);
      expectOutage(during, /cannot be reached/);
      const signIn = await post('/verify_user', { email: 'dee@example.com', password: 'correct horse battery' });
      expectOutage(signIn, /cannot be reached/);

      proxy.restore();
      // The pool makes new connections on demand: no restart, the next requests are served.
      let back = 0;
      for (let i = 0; i < 50 && back !== 200; i++) {
        back = (await app.inject({ method: 'GET', url: '/api/health' })).statusCode;
        if (back !== 200) await new Promise((r) => setTimeout(r, 200));
      }
      expect(back).toBe(200);
      const after = await post('/projects', {}, token);
      expect(after.statusCode).toBe(200);
      expect(after.json()).toEqual([expect.objectContaining({ subdomain: 'outage-app' })]);
      expect((await post('/verify_user', { email: 'dee@example.com', password: 'correct horse battery' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await proxy.close();
      await tdb.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
