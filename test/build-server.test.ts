// scripts/build-server.mjs clears what an earlier build left in dist/ before compiling: a stale
// dist/server/src/modules/hosting/runtime.js (the file before it became the runtime/ folder)
// shadowed runtime/index.js and the built server failed to start. Run on a copy of the script in a
// temporary tree, so the repository's own dist/ (which other tests may use) is left alone.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

test('a server build starts from an empty dist/server and dist/shared, and keeps the packed tarballs', () => {
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-build-'));
  try {
    fs.mkdirSync(path.join(tree, 'scripts'));
    fs.copyFileSync(path.resolve(__dirname, '../scripts/build-server.mjs'), path.join(tree, 'scripts/build-server.mjs'));
    const put = (rel: string) => {
      fs.mkdirSync(path.dirname(path.join(tree, rel)), { recursive: true });
      fs.writeFileSync(path.join(tree, rel), 'old');
    };
    put('dist/server/src/modules/hosting/runtime.js');
    put('dist/shared/old.js');
    put('dist/packages/hostbase-client-0.1.0.tgz');
    execFileSync(process.execPath, [path.join(tree, 'scripts/build-server.mjs'), '--clean-only']);
    expect(fs.existsSync(path.join(tree, 'dist/server'))).toBe(false);
    expect(fs.existsSync(path.join(tree, 'dist/shared'))).toBe(false);
    expect(fs.existsSync(path.join(tree, 'dist/packages/hostbase-client-0.1.0.tgz'))).toBe(true);
  } finally {
    fs.rmSync(tree, { recursive: true, force: true });
  }
});
