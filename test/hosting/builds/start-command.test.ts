// Start commands are resolved at build time to what the runtime runs without npm and without
// the links a deployment does not keep: `node X`, a package's bin through node, else sh -c.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BuildFailedError } from '../../../server/src/modules/hosting/build/build-runner';
import { startCommand } from '../../../server/src/modules/hosting/build/start-command';

let dir: string;
const read = (n: string) => fs.promises.readFile(path.join(dir, n), 'utf8');

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-start-test-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { start: 'node dist/server.js --port 8080' } }));
  fs.mkdirSync(path.join(dir, 'node_modules/.bin'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'node_modules/serve/bin'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'node_modules/serve/bin/serve.js'), '#!/usr/bin/env node\nconsole.log(1)\n');
  fs.symlinkSync('../serve/bin/serve.js', path.join(dir, 'node_modules/.bin/serve'));
  fs.symlinkSync('/usr/bin/env', path.join(dir, 'node_modules/.bin/outside'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test.each([
  ['node server.js', { entry: 'server.js', command: [process.execPath, 'server.js'] }],
  ['node ./dist/index.js --flag', { entry: 'dist/index.js', command: [process.execPath, './dist/index.js', '--flag'] }],
  ['npm start', { entry: 'dist/server.js', command: [process.execPath, 'dist/server.js', '--port', '8080'] }],
  ['serve -s dist', { entry: 'node_modules/serve/bin/serve.js', command: [process.execPath, '/app/node_modules/serve/bin/serve.js', '-s', 'dist'] }],
  // A bin that links outside node_modules is not followed: it runs as the shell command it is.
  ['outside x', { entry: 'package.json', command: ['/bin/sh', '-c', 'PATH=/app/node_modules/.bin:$PATH; outside x'] }],
  ['NODE_ENV=production node server.js', { entry: 'package.json', command: ['/bin/sh', '-c', 'PATH=/app/node_modules/.bin:$PATH; NODE_ENV=production node server.js'] }],
])('%s', async (start, expected) => {
  expect(await startCommand(dir, start, read)).toEqual(expected);
});

test('a start command that runs npm at runtime is refused with advice', async () => {
  await expect(startCommand(dir, 'npm run dev', read)).rejects.toBeInstanceOf(BuildFailedError);
  await expect(startCommand(dir, 'npx next start', read)).rejects.toThrow(/runs a package manager/);
});
