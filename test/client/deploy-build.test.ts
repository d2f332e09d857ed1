// `hostbase deploy` of source code, without a platform: a small local HTTP server speaks the
// contract's parts the CLI uses (projects, the upload answering 202, the build log as Server-Sent
// Events). Covers following the log (split frames, a dropped connection, a refusal), the exit code
// from the `end` event, what the folder's zip leaves out, and the type guessed from package.json.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { followBuild, FollowError } from '../../packages/cli/src/follow-build';
import { guessType } from '../../packages/cli/src/site-type';
import { listFolder } from '../../packages/cli/src/zip';

jest.setTimeout(60_000);

const root = path.resolve(__dirname, '..', '..');
const STREAM = '/api/project/p1/deployments/d2/log-stream';
const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const pause = () => new Promise((r) => setTimeout(r, 20));

interface Platform {
  url: string;
  /** Each stream request: its Authorization header. */
  streams: string[];
  uploads: { type: string; zip: Buffer }[];
  close: () => Promise<void>;
}

/** `stream(res, n)` answers the n-th (0-based) connection to the build log. */
async function platform(stream: (res: http.ServerResponse, n: number) => Promise<void> | void, upload = { status: 202, message: 'Build started: Detected Vite (package.json: vite, scripts.build)' }): Promise<Platform> {
  const streams: string[] = [];
  const uploads: Platform['uploads'] = [];
  const server = http.createServer(async (req, res) => {
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'POST' && req.url === '/api/projects') return json(200, [{ id: 'p1', project_name: 'shop', subdomain: 'shop', primary_domain: 'shop.hostbase.test', site_url: 'http://shop.hostbase.test:8080', created_at: '2026-11-25T00:00:00.000Z' }]);
    if (req.method === 'POST' && req.url === '/api/project/p1/upload-and-extract-zip/') {
      const form = await new Request('http://x/', { method: 'POST', headers: req.headers as Record<string, string>, body: Buffer.concat(await req.toArray()) }).formData();
      uploads.push({ type: String(form.get('type')), zip: Buffer.from(await (form.get('file') as Blob).arrayBuffer()) });
      const building = upload.status === 202;
      return json(upload.status, { message: upload.message, deployment: { id: 'd2', status: building ? 'building' : 'live', live: !building } });
    }
    if (req.method === 'GET' && req.url === STREAM) {
      streams.push(String(req.headers.authorization));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      return stream(res, streams.length - 1);
    }
    json(404, { message: 'Deployment not found', code: 'NOT_FOUND' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    streams,
    uploads,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

let home: string;
beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-build-'));
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

describe('followBuild', () => {
  let p: Platform | undefined;
  afterEach(async () => {
    await p?.close();
    p = undefined;
  });

  test('prints the log as it comes, from frames split anywhere, and returns the end', async () => {
    const wire = frame('log', { text: 'Detected Vite\n' }) + ': still building\n\n' + frame('log', { text: '$ npm ci\nadded 41 packages\n' }) + frame('log', { text: 'vite build ✓\n' }) + frame('end', { status: 'live', error: null });
    p = await platform(async (res) => {
      // Pieces cut mid-field, mid-JSON and inside a multi-byte character.
      const bytes = Buffer.from(wire);
      for (const [a, b] of [[0, 9], [9, 40], [40, bytes.indexOf(Buffer.from('✓')) + 1], [bytes.indexOf(Buffer.from('✓')) + 1, bytes.length]]) {
        res.write(bytes.subarray(a, b));
        await pause();
      }
      res.end();
    });
    const out: string[] = [];
    const end = await followBuild({ url: p.url + STREAM, token: 'tok', write: (t) => out.push(t) });
    expect(end).toEqual({ status: 'live', error: null });
    expect(out.join('')).toBe('Detected Vite\n$ npm ci\nadded 41 packages\nvite build ✓\n');
    expect(p.streams).toEqual(['Bearer tok']);
  });

  test('after a dropped connection it reconnects and prints only what is new', async () => {
    p = await platform((res, n) => {
      res.write(frame('log', { text: 'one\n' }) + frame('log', { text: 'tw' }));
      // The first connection closes before the end (a proxy's timeout); the next one replays the
      // log from its first line, now longer.
      if (n === 0) return void res.end();
      res.end(frame('log', { text: 'o\nthree\n' }) + frame('end', { status: 'failed', error: 'npm run build exited with code 1' }));
    });
    const out: string[] = [];
    const end = await followBuild({ url: p.url + STREAM, token: 'tok', write: (t) => out.push(t), retryMs: 10 });
    expect(end).toEqual({ status: 'failed', error: 'npm run build exited with code 1' });
    expect(out).toEqual(['one\n', 'tw', 'o\nthree\n']);
    expect(p.streams).toHaveLength(2);
  });

  test('a refusal is not retried; a stream that keeps dropping is given up', async () => {
    p = await platform(() => undefined);
    const refused = await followBuild({ url: `${p.url}/api/project/p1/deployments/nope/log-stream`, token: 'tok', write: () => undefined, retryMs: 10 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(FollowError);
    expect((refused as Error).message).toBe('Deployment not found');
    await p.close();

    p = await platform((res) => void res.end(frame('log', { text: 'x' })));
    const lost = await followBuild({ url: p.url + STREAM, token: 'tok', write: () => undefined, retryMs: 10, reconnects: 2 }).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(FollowError);
    expect((lost as Error).message).toMatch(/^Lost the build log \(the stream closed before the build ended\)/);
    expect(p.streams).toHaveLength(3);
  });
});

describe('the folder and its type', () => {
  function folder(files: Record<string, string>): string {
    const dir = fs.mkdtempSync(path.join(home, 'site-'));
    for (const [name, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), content);
    }
    return dir;
  }

  test('installed dependencies are left out (node_modules, virtualenvs); what a build reads is kept', () => {
    const dir = folder({
      'package.json': '{}',
      'package-lock.json': '{}',
      '.npmrc': 'engine-strict=true',
      '.env.production': 'VITE_API=/api',
      'src/main.js': '',
      'node_modules/vite/index.js': '',
      'apps/web/node_modules/react/index.js': '',
      'api/requirements.txt': 'flask',
      'api/.venv/pyvenv.cfg': 'home = /usr/bin',
      'api/env/pyvenv.cfg': 'home = /usr/bin',
      'api/env/lib/site.py': '',
      'php/composer.json': '{}',
      'php/vendor/autoload.php': '<?php',
      '.git/HEAD': 'ref: refs/heads/main',
    });
    // A virtualenv's python links out of the folder, which would otherwise stop the deploy.
    fs.mkdirSync(path.join(dir, 'api/.venv/bin'));
    fs.symlinkSync(process.execPath, path.join(dir, 'api/.venv/bin/python'));
    fs.symlinkSync(path.join(home), path.join(dir, 'php/node_modules'));
    const skipped: string[] = [];
    const names = listFolder(dir, skipped).map((e) => e.name);
    expect(names).toEqual(['.env.production', '.npmrc', 'api/requirements.txt', 'package-lock.json', 'package.json', 'php/composer.json', 'php/vendor/autoload.php', 'src/main.js']);
    expect(skipped.sort()).toEqual(['api/.venv/', 'api/env/', 'apps/web/node_modules/', 'node_modules/', 'php/node_modules/']);
  });

  test('the type comes from package.json\'s dependencies, composer.json or requirements.txt', () => {
    const guess = (files: Record<string, string>) => guessType(Object.keys(files), (n) => files[n]);
    const pkg = (deps: Record<string, string>) => JSON.stringify({ scripts: { build: 'x' }, devDependencies: deps });
    expect(guess({ 'index.html': '', 'package.json': pkg({ vite: '^6' }) })).toBe('Vite');
    expect(guess({ 'index.html': '', 'package.json': pkg({ vite: '^6', vue: '^3' }) })).toBe('Vue');
    expect(guess({ 'package.json': pkg({ next: '15', react: '19' }) })).toBe('Next.js');
    expect(guess({ 'package.json': pkg({ '@angular/core': '19' }), 'angular.json': '{}' })).toBe('Angular');
    expect(guess({ 'package.json': pkg({ astro: '5' }) })).toBe('Astro');
    expect(guess({ 'package.json': pkg({ 'react-scripts': '5', react: '19' }) })).toBe('React');
    expect(guess({ 'package.json': pkg({ express: '5' }), 'server.js': '' })).toBe('Node');
    expect(guess({ 'package.json': 'not json', 'server.js': '' })).toBe('Node');
    expect(guess({ 'index.html': '', 'package.json': pkg({ prettier: '3' }) })).toBe('Static');
    expect(guess({ 'composer.json': '{}', 'package.json': pkg({ vite: '6' }), 'public/index.php': '' })).toBe('PHP');
    expect(guess({ 'index.php': '' })).toBe('PHP');
    expect(guess({ 'requirements.txt': 'flask', 'app.py': '' })).toBe('Flask');
    expect(guess({ 'index.html': '', 'docs/a.html': '' })).toBe('Static');
  });
});

describe('hostbase deploy of source code', () => {
  function hostbase(p: Platform, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const config = fs.mkdtempSync(path.join(home, 'config-'));
    fs.writeFileSync(path.join(config, 'credentials.json'), JSON.stringify({ url: p.url, email: 'dev@example.com', token: 'dev-token' }), { mode: 0o600 });
    return new Promise((resolve, reject) => {
      const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'packages/cli/src/cli.ts'), ...args], {
        cwd: root,
        env: { ...process.env, HOSTBASE_CONFIG_DIR: config, HOSTBASE_POLL_MS: '10' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  const source = () => {
    const dir = fs.mkdtempSync(path.join(home, 'vite-'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { build: 'vite build' }, devDependencies: { vite: '^6.0.0' } }));
    fs.writeFileSync(path.join(dir, 'index.html'), '<script type="module" src="/src/main.js"></script>');
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src/main.js'), 'document.body.append("hi")');
    fs.mkdirSync(path.join(dir, 'node_modules/vite'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'node_modules/vite/package.json'), '{}');
    return dir;
  };

  test('a build that goes live: its log is printed as it comes, exit 0', async () => {
    const p = await platform(async (res) => {
      res.write(frame('log', { text: '$ npm ci\n' }));
      await pause();
      res.end(frame('log', { text: 'dist/index.html 0.4 kB' }) + frame('end', { status: 'live', error: null }));
    });
    try {
      const r = await hostbase(p, ['deploy', source()]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Leaving out node_modules/');
      expect(r.stdout).toMatch(/Deploying 3 files .* as Vite/);
      expect(r.stdout).toContain('Build started: Detected Vite (package.json: vite, scripts.build)\n$ npm ci\ndist/index.html 0.4 kB\nDeployment d2 is live: http://shop.hostbase.test:8080');
      expect(p.uploads[0].type).toBe('Vite');
      expect(p.uploads[0].zip.includes('src/main.js')).toBe(true);
      expect(p.uploads[0].zip.includes('node_modules')).toBe(false);
      expect(p.streams).toEqual(['Bearer dev-token']);
    } finally {
      await p.close();
    }
  });

  test('a build that fails: exit 1 with the server\'s reason', async () => {
    const p = await platform((res) => void res.end(frame('log', { text: 'Error: Cannot find module "./App"\n' }) + frame('end', { status: 'failed', error: 'npm run build exited with code 1' })));
    try {
      const r = await hostbase(p, ['deploy', source(), '--type', 'React']);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('Error: Cannot find module "./App"\n');
      expect(r.stdout).not.toContain('is live');
      expect(r.stderr).toBe('Build failed: npm run build exited with code 1\nThe live site stays as it was.\n');
      expect(p.uploads[0].type).toBe('React');
    } finally {
      await p.close();
    }
  });

  test('an upload served as it came (200) is not followed', async () => {
    const p = await platform(() => undefined, { status: 200, message: 'Project deployed!' });
    try {
      // package.json: a zip upload (a folder with nothing to build goes by manifest, cli.test.ts),
      // which this server serves as it came.
      const dir = fs.mkdtempSync(path.join(home, 'static-'));
      fs.writeFileSync(path.join(dir, 'index.html'), 'hi');
      fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"prebuilt"}');
      const r = await hostbase(p, ['deploy', dir]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Deployment d2 is live: http://shop.hostbase.test:8080');
      expect(p.streams).toEqual([]);
    } finally {
      await p.close();
    }
  });
});
