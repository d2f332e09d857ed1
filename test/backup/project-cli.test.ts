// `npm run project -- export|import` as an operator runs it: one fresh platform data directory
// (embedded PGlite, files on disk) exported by the command, imported by the command into another
// with another secret, and the restored project served by a platform started on it.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { makeZip, multipart } from '../helpers/factories';

jest.setTimeout(180_000);

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const CLI = path.join(ROOT, 'server/src/cli/project.ts');
const USER = { email: 'reader@example.com', password: 'correct horse battery' };
const DEV = { name: 'Ada', email: 'ada@example.com', password: 'a-long-pass-phrase' };
const HTML = '<!doctype html><title>cli</title>ok';

let work: string;
const envOf = (dataDir: string) => ({ DATA_DIR: dataDir, JWT_SECRET: `secret-${path.basename(dataDir)}`, PASSWORD_HASH_COST: '12', LOG_LEVEL: 'silent', PLATFORM_DOMAIN: 'cli.test' });

async function platform(dataDir: string): Promise<FastifyInstance> {
  const app = await buildApp({ ...loadConfig(envOf(dataDir)), webDir: undefined }, { logger: false });
  await app.ready();
  return app;
}

const post = (app: FastifyInstance, url: string, payload: object, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/api' + url, headers, payload });

/** The command, with only the platform's settings in its environment (no DATABASE_URL, no S3). */
async function cli(dataDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH!, HOME: os.homedir(), ...envOf(dataDir) };
  try {
    const { stdout, stderr } = await run(TSX, [CLI, ...args], { cwd: work, env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  work = await fsp.mkdtemp(path.join(os.tmpdir(), 'hostbase-cli-'));
});
afterAll(() => fsp.rm(work, { recursive: true, force: true }));

test('export from one data directory, import into another, the site and sign-in work there', async () => {
  const dirA = path.join(work, 'a');
  const dirB = path.join(work, 'b');
  const archive = path.join(work, 'shop.tar.gz');

  const a = await platform(dirA);
  const token = (await post(a, '/register', DEV)).json().token as string;
  const auth = { authorization: `Bearer ${token}` };
  const id = (await post(a, '/create-project', { projectName: 'Shop', subdomain: 'shop' }, auth)).json().project.id as string;
  const authKey = (await post(a, `/project/${id}/authentication-details`, {}, auth)).json().api_key as string;
  expect((await post(a, '/auth/v1/signup', USER, { 'x-api-key': authKey })).statusCode).toBe(200);
  const { body, contentType } = multipart([
    { field: 'domain', value: 'shop.cli.test:3000' },
    { field: 'projectId', value: id },
    { field: 'type', value: 'React' },
    { name: 'site.zip', type: 'application/zip', content: makeZip([{ name: 'index.html', data: HTML }]) },
  ]);
  const deployed = await a.inject({ method: 'POST', url: `/api/project/${id}/upload-and-extract-zip/`, headers: { ...auth, 'content-type': contentType }, payload: body });
  expect(deployed.statusCode).toBe(200);
  await a.close();

  const exported = await cli(dirA, 'export', id, '--out', archive);
  expect(exported).toMatchObject({ code: 0, stderr: '' });
  expect(exported.stdout).toContain(`Exported project ${id} to ${archive}`);
  expect(exported.stdout).toContain('1 end users, 1 live deployment');
  expect((await cli(dirA, 'export', id, '--out', archive)).stderr).toContain('exists: choose another name');

  const b = await platform(dirB);
  expect((await post(b, '/register', DEV)).statusCode).toBe(200);
  await b.close();

  expect(await cli(dirB, 'import', archive)).toMatchObject({ code: 2, stderr: expect.stringContaining('usage:') });
  const missing = await cli(dirB, 'import', archive, '--owner', 'grace@example.com');
  expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining('No account with the e-mail grace@example.com on this platform') });
  const imported = await cli(dirB, 'import', archive, '--owner', DEV.email);
  expect(imported).toMatchObject({ code: 0, stderr: '' });
  expect(imported.stdout).toContain(`Imported project ${id} for ${DEV.email}`);

  const b2 = await platform(dirB);
  try {
    expect((await post(b2, '/auth/v1/signin', USER, { 'x-api-key': authKey })).statusCode).toBe(200);
    const page = await b2.inject({ method: 'GET', url: '/', headers: { host: 'shop.cli.test:3000' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(HTML);
  } finally {
    await b2.close();
  }
  expect(fs.readdirSync(path.join(dirB, 'backup'))).toEqual([]);
});
