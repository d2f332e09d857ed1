// The zip plan: every entry judged from the central directory before anything is written.
import { makeZip } from '../../../../../test/helpers/factories';
import { normaliseName, planZip, ZipRefusedError, type ZipLimits } from './zip-extract';

const plan = async (items: Parameters<typeof makeZip>[0], limits?: ZipLimits) => {
  const p = await planZip(makeZip(items), limits);
  p.close();
  return p;
};
const refused = (items: Parameters<typeof makeZip>[0], limits?: ZipLimits) => expect(plan(items, limits)).rejects.toThrow(ZipRefusedError);

describe('normaliseName', () => {
  test.each([
    ['a/./b//c.txt', 'a/b/c.txt'],
    ['./index.html', 'index.html'],
    ['dir/', 'dir'],
  ])('%j -> %j', (raw, name) => expect(normaliseName(raw)).toBe(name));

  test.each(['../evil', 'a/../../evil', '/etc/passwd', 'C:/Windows/x', 'c:evil', 'a\u0000b', 'tab\tname'])('refuses %j', (raw) => {
    expect(() => normaliseName(raw)).toThrow(ZipRefusedError);
  });
});

describe('planZip', () => {
  test('plans regular files, skips folders and __MACOSX, strips a single wrapper folder', async () => {
    const p = await plan([
      { name: 'site/', mode: 0o040755 },
      { name: 'site/index.html', data: '<h1>hi</h1>' },
      { name: 'site/js/app.js', data: 'x' },
      { name: '__MACOSX/site/._index.html', data: 'junk' },
    ]);
    expect(p.strippedWrapper).toBe('site');
    expect(p.files.map((f) => [f.name, f.size])).toEqual([['index.html', 11], ['js/app.js', 1]]);
    expect(p.totalBytes).toBe(12);
  });

  test('keeps names as they are when there is no single wrapper', async () => {
    const p = await plan([{ name: 'index.html', data: 'a' }, { name: 'css/a.css', data: 'b' }]);
    expect(p.strippedWrapper).toBeUndefined();
    expect(p.files.map((f) => f.name)).toEqual(['index.html', 'css/a.css']);
  });

  test('refuses path traversal and absolute paths', async () => {
    await refused([{ name: '../escape.txt', data: 'x' }]);
    await refused([{ name: 'a/../../escape.txt', data: 'x' }]);
    await refused([{ name: '/etc/cron.d/x', data: 'x' }]);
  });

  test('refuses symlinks and special files', async () => {
    await expect(plan([{ name: 'link', data: '/etc/passwd', mode: 0o120777 }])).rejects.toThrow(/symlink or special file/);
    await refused([{ name: 'fifo', mode: 0o010644 }]);
  });

  test('refuses a name twice (also after normalising) and a file that is also a folder', async () => {
    await expect(plan([{ name: 'a.txt', data: '1' }, { name: './a.txt', data: '2' }])).rejects.toThrow(/twice/);
    await expect(plan([{ name: 'a', data: '1' }, { name: 'a/b.txt', data: '2' }])).rejects.toThrow(/both a file and a folder/);
  });

  test('refuses a name over 1024 bytes, before any Set holds it (V8 hashes a string over 16,383 characters by its length)', async () => {
    await expect(plan([{ name: `${'a/'.repeat(511)}ab`, data: 'x' }])).resolves.toBeDefined();
    await expect(plan([{ name: `${'a/'.repeat(511)}abc`, data: 'x' }])).rejects.toThrow(/a file name longer than 1024 bytes/);
    const long = Array.from({ length: 300 }, (_, i) => ({ name: `${'a/'.repeat(20_000)}${i}`, data: '' }));
    await expect(plan(long)).rejects.toThrow(/a file name longer than 1024 bytes/);
  });

  test('a clash deep in many long shared folders is found', async () => {
    const deep = 'd/'.repeat(400);
    const names = Array.from({ length: 2000 }, (_, i) => ({ name: `${deep}f${i}`, data: '' }));
    await expect(plan(names)).resolves.toBeDefined();
    await expect(plan([...names, { name: `${deep}f1999/x`, data: '' }])).rejects.toThrow(`The zip contains "${deep}f1999" as both a file and a folder.`);
  });

  const small: ZipLimits = { maxTotalBytes: 1000, maxEntries: 3, maxRatio: 10, ratioFloorBytes: 100 };

  test('refuses more entries than the limit, and accepts exactly the limit', async () => {
    await expect(plan([1, 2, 3].map((i) => ({ name: `${i}.txt`, data: 'x' })), small)).resolves.toBeDefined();
    await expect(plan([1, 2, 3, 4].map((i) => ({ name: `${i}.txt`, data: 'x' })), small)).rejects.toThrow(/more than 3 entries/);
  });

  test('refuses a total past the limit, counting declared sizes', async () => {
    await expect(plan([{ name: 'a', data: Buffer.alloc(600, 1), deflate: false }, { name: 'b', data: Buffer.alloc(400, 2), deflate: false }], small)).resolves.toBeDefined();
    await expect(plan([{ name: 'a', data: Buffer.alloc(600, 1), deflate: false }, { name: 'b', data: Buffer.alloc(401, 2), deflate: false }], small)).rejects.toThrow(/expands to more than/);
  });

  test('refuses an entry compressed past the ratio above the floor; below the floor it passes', async () => {
    const limits = { ...small, maxTotalBytes: 1_000_000 };
    await expect(plan([{ name: 'bomb', data: Buffer.alloc(50_000), deflate: true }], limits)).rejects.toThrow(/compressed more than 10:1/);
    await expect(plan([{ name: 'tiny', data: Buffer.alloc(90), deflate: true }], limits)).resolves.toBeDefined();
  });

  test('refuses bytes that are not a zip', async () => {
    await expect(planZip(Buffer.from('not a zip at all'))).rejects.toThrow(/not a valid zip/);
  });
});
