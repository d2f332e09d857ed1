// Every entry's CRC-32 is checked by the one extractor: a stored (uncompressed) entry whose data was
// flipped after its header was written is refused at deploy (400, the live site stays) and makes a
// cache fill on another instance fail without a folder of partial files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createSiteProject, deploy, site, type SiteProject } from './site-helpers';
import { makeZip } from './zips';

let t: TestApp;
let p: SiteProject;

beforeAll(async () => {
  t = await buildTestApp();
  p = await createSiteProject(t);
}, 60_000); // a fresh app on a fresh database: PGlite's first start on a loaded machine passes 5 s
afterAll(() => t.close());

const PAGE = '<!doctype html><title>good</title>' + 'x'.repeat(200);

/** A static site with a stored index.html whose data has one byte flipped; the header CRC is the true one. */
function corrupted(): Buffer {
  const zip = makeZip([{ name: 'index.html', data: PAGE, deflate: false }, { name: 'a.txt', data: 'fine', deflate: false }]);
  const at = 30 + 'index.html'.length + 40;
  zip[at] ^= 0x01;
  return zip;
}

test('a deploy whose stored entry fails its CRC-32 is a 400 naming the corruption; the live site stays', async () => {
  expect((await deploy(t, p, makeZip([{ name: 'index.html', data: PAGE, deflate: false }]), 'Static')).statusCode).toBe(200);
  const res = await deploy(t, p, corrupted(), 'Static');
  expect(res.statusCode).toBe(400);
  expect(res.json().message).toMatch(/CRC-32.*corrupted/);
  const live = await site(t, p, '/');
  expect(live.statusCode).toBe(200);
  expect(live.body).toBe(PAGE);
});

test('a cache fill on another instance from a corrupted stored archive fails and leaves no cached files', async () => {
  const live = (await t.post(`/project/${p.id}/deployments`, {}, p.dev.token)).json().live_deployment_id as string;
  const key = `sites/${p.id}/${live}/archive.zip`;
  const bad = corrupted();
  await t.app.deps.objectStore.put(key, Readable.from([bad]), { size: bad.length, contentType: 'application/zip' });
  const { buildApp } = require('../../server/src/app') as typeof import('../../server/src/app');
  const { loadConfig } = require('../../server/src/config') as typeof import('../../server/src/config');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-crc-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x', LOG_LEVEL: 'silent', PASSWORD_HASH_COST: '12' }), webDir: undefined };
  const second = await buildApp(config, { database: t.database, objectStore: t.app.deps.objectStore, logger: false });
  try {
    for (const url of ['/', '/a.txt']) {
      const res = await second.inject({ method: 'GET', url, headers: { host: p.host } });
      expect(res.statusCode).toBeGreaterThanOrEqual(500);
      expect(res.body).not.toContain('good');
      expect(res.body).not.toBe('fine');
    }
    expect(fs.readdirSync(path.join(dataDir, 'hosting', 'cache'))).toEqual([]);
    expect(fs.readdirSync(path.join(dataDir, 'hosting', 'tmp'))).toEqual([]);
  } finally {
    await second.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
