// Hosting bench (`npm run bench:hosting`). Prints figures only, asserts nothing about time.
//  1. Static GET req/s through the gateway vs Debian's nginx serving the same extracted files
//     (keep-alive, same connections, same duration, autocannon for both; nginx with one worker,
//     as the API is one Node process).
//  2. Deploy time of a 5,000-file, ~50 MB zip through the API vs `unzip` of the same file.
// Needs: nginx and unzip (apt-get install -y nginx unzip); a part is skipped when its tool is missing.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yazl from 'yazl';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { openDatabase } from '../server/src/db/client';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const has = (bin: string) => spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0;

function zipOf(files: { name: string; data: Buffer }[], out: string): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const f of files) zip.addBuffer(f.data, f.name, { compress: f.name.endsWith('.bin') ? false : true });
  zip.end();
  return new Promise((resolve, reject) => zip.outputStream.pipe(fs.createWriteStream(out)).on('close', resolve).on('error', reject));
}

/** autocannon in its own process: in this one it would steal the server's event loop. */
async function cannon(url: string, host: string) {
  const bin = path.join(__dirname, '..', 'node_modules', '.bin', 'autocannon');
  const child = spawn(bin, ['--json', '-c', String(CONNECTIONS), '-d', String(DURATION), '-H', `host=${host}`, url], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  await new Promise((r) => child.on('close', r));
  const r = JSON.parse(out);
  return { rps: Math.round(r.requests.average), p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-bench-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'bench', LOG_LEVEL: 'warn', PASSWORD_HASH_COST: '12', MAX_UPLOAD_BYTES: String(200 * 1024 * 1024) }), webDir: undefined };
  const database = await openDatabase({ pgliteDir: 'memory://' });
  const app = await buildApp(config, { database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const base = `http://127.0.0.1:${port}`;
  const post = async (p: string, body: unknown, token?: string) =>
    (await fetch(`${base}/api${p}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) })).json() as Promise<any>;
  const { token } = await post('/register', { name: 'Bench', email: `bench${Date.now()}@example.com`, password: 'correct horse battery' });
  const project = (await post('/create-project', { projectName: 'Bench', subdomain: `bench${Date.now().toString(36)}` }, token)).project;
  const host = `${project.subdomain}.localhost:${port}`;
  const deploy = async (zipFile: string, type: string) => {
    const form = new FormData();
    form.set('type', type);
    form.set('file', new Blob([fs.readFileSync(zipFile)]), 'site.zip');
    const started = performance.now();
    const res = await fetch(`${base}/api/project/${project.id}/upload-and-extract-zip/`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`deploy failed: ${res.status} ${await res.text()}`);
    return { ms, deployment: (await res.json()).deployment };
  };

  // ---- 1. static GET: gateway vs nginx
  const asset = Buffer.from(`/* app bundle */\n${'export const x = () => "hostbase";\n'.repeat(300)}`); // ~10 KB
  const siteZip = path.join(dataDir, 'site.zip');
  await zipOf([{ name: 'index.html', data: Buffer.from('<!doctype html><title>bench</title><script src="/assets/index-abcdef12.js"></script>') }, { name: 'assets/index-abcdef12.js', data: asset }], siteZip);
  const { deployment } = await deploy(siteZip, 'React');
  const served = path.join(dataDir, 'hosting', 'cache', deployment.id);
  const urlPath = '/assets/index-abcdef12.js';
  await cannon(`${base}${urlPath}`, host); // warm-up (JIT, caches)
  const gateway = await cannon(`${base}${urlPath}`, host);
  console.log(`static GET ${urlPath} (${asset.length} B), ${CONNECTIONS} connections, ${DURATION} s, keep-alive`);
  console.log(`  gateway: ${gateway.rps} req/s, p99 ${gateway.p99} ms, non-2xx ${gateway.non2xx}, errors ${gateway.errors}`);
  if (has('nginx')) {
    const nginxPort = 20000 + Math.floor(Math.random() * 20000);
    const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-nginx-'));
    const conf = path.join(prefix, 'nginx.conf');
    fs.writeFileSync(
      conf,
      `${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  keepalive_timeout 65;
  client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy; fastcgi_temp_path ${prefix}/fcgi; uwsgi_temp_path ${prefix}/uwsgi; scgi_temp_path ${prefix}/scgi;
  server {
    listen 127.0.0.1:${nginxPort};
    root ${served};
    location / { try_files $uri /index.html; }
  }
}
`,
    );
    const nginx = spawn('/usr/sbin/nginx', ['-p', prefix, '-c', conf], { stdio: 'inherit' });
    await new Promise((r) => setTimeout(r, 500));
    await cannon(`http://127.0.0.1:${nginxPort}${urlPath}`, 'localhost');
    const ng = await cannon(`http://127.0.0.1:${nginxPort}${urlPath}`, 'localhost');
    nginx.kill('SIGQUIT');
    console.log(`  nginx:   ${ng.rps} req/s, p99 ${ng.p99} ms, non-2xx ${ng.non2xx}, errors ${ng.errors}`);
    console.log(`  ratio gateway/nginx: ${(gateway.rps / ng.rps).toFixed(2)} (goal >= 0.60)`);
  } else console.log('  nginx: not installed (apt-get install -y nginx), comparison skipped');

  // ---- 2. deploy of a 5,000-file ~50 MB zip vs unzip
  const bigZip = path.join(dataDir, 'big.zip');
  const files = Array.from({ length: 5000 }, (_, i) => ({ name: i === 0 ? 'index.html' : `assets/d${i % 50}/f${i}.bin`, data: i === 0 ? Buffer.from('<title>big</title>') : crypto.randomBytes(10 * 1024) }));
  await zipOf(files, bigZip);
  const zipMb = fs.statSync(bigZip).size / 1048576;
  console.log(`deploy of ${files.length} files, ${zipMb.toFixed(1)} MB zip`);
  const deploys: number[] = [];
  for (let i = 0; i < 2; i++) deploys.push((await deploy(bigZip, 'Static')).ms);
  const best = Math.min(...deploys);
  console.log(`  API deploy (upload + check + extract + store + switch): ${deploys.map((m) => `${Math.round(m)} ms`).join(', ')}`);
  if (has('unzip')) {
    const times: number[] = [];
    for (let i = 0; i < 2; i++) {
      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-unzip-'));
      const started = performance.now();
      execFileSync('unzip', ['-q', bigZip, '-d', out]);
      times.push(performance.now() - started);
      fs.rmSync(out, { recursive: true, force: true });
    }
    const unzipBest = Math.min(...times);
    console.log(`  unzip -q: ${times.map((m) => `${Math.round(m)} ms`).join(', ')}`);
    console.log(`  ratio deploy/unzip (best of 2): ${(best / unzipBest).toFixed(2)} (goal <= 1.5)`);
  } else console.log('  unzip: not installed (apt-get install -y unzip), comparison skipped');

  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
