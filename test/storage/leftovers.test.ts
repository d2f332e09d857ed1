// A crash leaves nothing behind (storage's part): temp files an upload or a deploy's archive was being
// written to when the process was killed are removed when the instance starts again. DATA_DIR
// belongs to one running instance, so every temp file found at start is a crash's leftover.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createObjectStore } from '../../server/src/platform/object-store/object-store.factory';
import { FsObjectStore } from '../../server/src/platform/object-store/object-store.fs';

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-leftovers-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

it('the app\'s store removes every temp file at start, however fresh, and keeps stored objects', async () => {
  const first = await createObjectStore({ dataDir });
  await first.put('sites/p/d/archive.zip', Readable.from([Buffer.from('complete')]));
  const tmp = path.join(dataDir, 'storage', 'tmp');
  fs.writeFileSync(path.join(tmp, '0b7c5a9e-partial'), Buffer.alloc(4096)); // a killed put's bytes
  fs.writeFileSync(path.join(tmp, '0b7c5a9e-partial.json'), '{}');

  const restarted = await createObjectStore({ dataDir });
  expect(fs.readdirSync(tmp)).toEqual([]);
  expect(await restarted.exists('sites/p/d/archive.zip')).toBe(true);
});

it('a store that may share its folder with another writer keeps fresh temp files (theirs may be in flight)', async () => {
  const root = path.join(dataDir, 'shared');
  await new FsObjectStore({ root }).init();
  fs.writeFileSync(path.join(root, 'tmp', 'in-flight'), 'x');
  await new FsObjectStore({ root }).init();
  expect(fs.readdirSync(path.join(root, 'tmp'))).toEqual(['in-flight']);
});
