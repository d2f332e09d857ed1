// A built folder written as a deployment's zip: regular files only (links skipped and counted,
// never followed), read back by the platform's own planZip/extractTo byte for byte; zip32's
// entry ceiling refused with the figure, not written as a broken archive.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_ENTRIES, writeArchive } from '../../../server/src/modules/hosting/build/output-archive';
import { BuildFailedError } from '../../../server/src/modules/hosting/build/build-runner';
import { extractTo, planZip } from '../../../server/src/modules/hosting/deploy/zip-extract';

const HIGH = { maxTotalBytes: 4 * 1024 ** 3, maxEntries: 65_535, maxRatio: 1e9, ratioFloorBytes: 1024 ** 3 };
let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-archive-test-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test('writes regular files that extract unchanged; links are skipped and counted, never followed', async () => {
  const src = path.join(dir, 'out');
  const files: Record<string, Buffer> = {
    'index.html': Buffer.from('<h1>built</h1>'),
    'assets/app-3f2a.js': Buffer.from('console.log("x");'.repeat(1000)),
    'assets/big.bin': crypto.randomBytes(3 * 1024 * 1024), // past the in-memory size: the streamed path
    'empty.txt': Buffer.alloc(0),
    'deep/a/b/c/é.txt': Buffer.from('unicode'),
  };
  for (const [name, data] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(src, name)), { recursive: true });
    fs.writeFileSync(path.join(src, name), data);
  }
  fs.symlinkSync('/etc/passwd', path.join(src, 'passwd'));
  fs.symlinkSync('/etc', path.join(src, 'etc'));
  fs.symlinkSync('index.html', path.join(src, 'alias.html'));

  const zip = path.join(dir, 'out.zip');
  const result = await writeArchive(src, zip);
  expect(result).toEqual({ files: 5, bytes: Object.values(files).reduce((n, b) => n + b.length, 0), skipped: 3 });

  const plan = await planZip(zip, HIGH);
  const dest = path.join(dir, 'extracted');
  fs.mkdirSync(dest);
  try {
    expect(plan.files.map((f) => f.name).sort()).toEqual(Object.keys(files).sort());
    await extractTo(plan, zip, dest);
  } finally {
    plan.close();
  }
  for (const [name, data] of Object.entries(files)) expect(fs.readFileSync(path.join(dest, name)).equals(data)).toBe(true);
  expect(fs.existsSync(path.join(dest, 'passwd'))).toBe(false);
  expect(fs.existsSync(path.join(dest, 'etc'))).toBe(false);
});

test('never overwrites an existing file', async () => {
  fs.writeFileSync(path.join(dir, 'a.txt'), 'a');
  fs.writeFileSync(path.join(dir, 'taken.zip'), 'mine');
  await expect(writeArchive(path.join(dir), path.join(dir, 'taken.zip'))).rejects.toThrow(/EEXIST/);
  expect(fs.readFileSync(path.join(dir, 'taken.zip'), 'utf8')).toBe('mine');
});

test('past the entry ceiling (zip32: 65,535) the output is refused clearly, and no partial zip is left', async () => {
  expect(MAX_ENTRIES).toBe(65_535);
  const src = path.join(dir, 'many');
  for (let d = 0; d < 3; d++) {
    fs.mkdirSync(path.join(src, String(d)), { recursive: true });
    for (let i = 0; i < 50; i++) fs.writeFileSync(path.join(src, String(d), String(i)), 'x');
  }
  const zip = path.join(dir, 'many.zip');
  const err = await writeArchive(src, zip, 100).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(BuildFailedError);
  expect((err as Error).message).toBe('The build output has more than 100 files; a deployment holds at most 100.');
  expect(fs.existsSync(zip)).toBe(false);
  // At the ceiling exactly, it is written.
  fs.rmSync(path.join(src, '2'), { recursive: true });
  expect((await writeArchive(src, zip, 100)).files).toBe(100);
});
