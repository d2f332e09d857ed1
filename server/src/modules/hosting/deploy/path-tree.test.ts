// A name that is both a file and a folder (path-tree.ts), found in time linear in the names.
import { fileAndFolder, fileAndFolderAsync } from './path-tree';

describe('fileAndFolder', () => {
  test.each([
    [['a', 'a/b'], 'a'],
    [['a/b', 'a'], 'a'],
    [['x/y/z', 'x/y'], 'x/y'],
    [['x/y', 'x/y/z/w'], 'x/y'],
    [['q/r/s', 'q/t', 'q/r/s/u/v'], 'q/r/s'],
    [['index.html', 'assets/a.js', 'assets/b.js', 'assets'], 'assets'],
  ])('%j: %j', (names, both) => {
    expect(fileAndFolder(names)).toBe(both);
  });

  test.each([[['a', 'a-b', 'a.b/c', 'ab/c']], [['index.html', 'assets/a.js', 'assets/sub/b.js', 'assets/sub2/c.js']], [[]]])('no clash in %j', (names) => {
    expect(fileAndFolder(names)).toBeUndefined();
  });

  test('long shared folders, deep and wide trees, the same answers, sync and async', async () => {
    const shared = Array.from({ length: 5000 }, (_, i) => `${'a/'.repeat(500)}b${i}`);
    expect(fileAndFolder(shared)).toBeUndefined();
    expect(fileAndFolder([...shared, `${'a/'.repeat(500)}b7/c`])).toBe(`${'a/'.repeat(500)}b7`);
    const caterpillar = Array.from({ length: 500 }, (_, i) => `${'a/'.repeat(i)}x`);
    expect(fileAndFolder(caterpillar)).toBeUndefined();
    expect(await fileAndFolderAsync([...caterpillar, `${'a/'.repeat(300)}x/y`])).toBe(`${'a/'.repeat(300)}x`);
    expect(await fileAndFolderAsync(shared)).toBeUndefined();
  });
});
