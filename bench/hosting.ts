// Hosting bench (`npm run bench:hosting`). Prints figures only, asserts nothing about time.
//  1. Static GET req/s through the gateway vs Debian's nginx serving the same extracted files
//     (keep-alive, same connections, same duration, autocannon for both; nginx with one worker,
//     as the API is one Node process; sendfile, open_file_cache, access_log off). The two are
//     measured in alternation, BENCH_ROUNDS times, and compared by their medians: this machine is
//     shared and a single run can be off by 2x.
//  2. Deploy time of a 5,000-file, ~50 MB zip through the API vs `unzip` of the same file, also
//     alternated BENCH_DEPLOYS times; best and median of each are printed.
//  3. Instant redeploy: a 1-file change to a 5,000-file site through the manifest API (manifest,
//     upload of the one missing file, finish), timed until a GET serves the new file, beside a full
//     zip deploy of the same site.
// Every setting of both sides is printed with the figures. BENCH_ONLY=static|deploy|redeploy runs one part.
// Needs: nginx and unzip (apt-get install -y nginx unzip); a part is skipped when its tool is missing.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import crypto from 'node:crypto';
import { get as httpGet } from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yazl from 'yazl';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { openDatabase } from '../server/src/db/client';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const DEPLOYS = Number(process.env.BENCH_DEPLOYS ?? 5);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const run = promisify(execFile);
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
  return { rps: Math.round(r.requests.average), p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, bytesPerReq: Math.round(r.throughput.total / Math.max(1, r.requests.total)) };
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
  const useCurl = has('curl');
  const deploy = async (zipFile: string, type: string) => {
    if (useCurl) {
      // The client in its own process, as a browser would be: an in-process fetch would share
      // (and slow) the server's event loop.
      const started = performance.now();
      const { stdout } = await run('curl', ['-s', '-w', '\n%{http_code}', '-H', `authorization: Bearer ${token}`, '-F', `type=${type}`, '-F', `file=@${zipFile};type=application/zip`, `${base}/api/project/${project.id}/upload-and-extract-zip/`], { maxBuffer: 1 << 24 });
      const ms = performance.now() - started;
      const status = stdout.slice(stdout.lastIndexOf('\n') + 1);
      const body = stdout.slice(0, stdout.lastIndexOf('\n'));
      if (status !== '200') throw new Error(`deploy failed: ${status} ${body}`);
      return { ms, deployment: JSON.parse(body).deployment };
    }
    const form = new FormData();
    form.set('type', type);
    form.set('file', new Blob([fs.readFileSync(zipFile)]), 'site.zip');
    const started = performance.now();
    const res = await fetch(`${base}/api/project/${project.id}/upload-and-extract-zip/`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`deploy failed: ${res.status} ${await res.text()}`);
    return { ms, deployment: (await res.json()).deployment };
  };

  const only = process.env.BENCH_ONLY; // 'static', 'deploy' or 'redeploy': that part only
  if (only === undefined || only === 'static') {
    // ---- 1. static GET: gateway vs nginx
    const asset = Buffer.from(`/* app bundle */\n${'export const x = () => "hostbase";\n'.repeat(300)}`); // ~10 KB
    const siteZip = path.join(dataDir, 'site.zip');
    await zipOf([{ name: 'index.html', data: Buffer.from('<!doctype html><title>bench</title><script src="/assets/index-abcdef12.js"></script>') }, { name: 'assets/index-abcdef12.js', data: asset }], siteZip);
    const { deployment } = await deploy(siteZip, 'React');
    const served = path.join(dataDir, 'hosting', 'cache', deployment.id);
    const urlPath = '/assets/index-abcdef12.js';
    console.log(`static GET ${urlPath} (${asset.length} B body, identity encoding: autocannon sends no Accept-Encoding)`);
    console.log(`  load: autocannon (own process), ${CONNECTIONS} connections, keep-alive, ${DURATION} s per run, ${ROUNDS} rounds alternating gateway/nginx, 1 warm-up run each`);
    console.log(`  gateway: this Node ${process.version} process (one event loop, no cluster), buildApp() as npm start builds it, PGlite; the site is served from memory by the hosting front door`);
    const gatewayUrl = `${base}${urlPath}`;
    let nginxUrl: string | undefined;
    let nginx: ReturnType<typeof spawn> | undefined;
    if (has('nginx')) {
      const nginxPort = 20000 + Math.floor(Math.random() * 20000);
      const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-nginx-'));
      const conf = path.join(prefix, 'nginx.conf');
      const http = `  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  open_file_cache max=10000 inactive=60s;
  open_file_cache_valid 60s;
  open_file_cache_errors on;
  etag on;
  keepalive_requests 1000000;
  keepalive_timeout 65;`;
      fs.writeFileSync(
        conf,
        `${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 4096; }
http {
${http}
  client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy; fastcgi_temp_path ${prefix}/fcgi; uwsgi_temp_path ${prefix}/uwsgi; scgi_temp_path ${prefix}/scgi;
  server {
    listen 127.0.0.1:${nginxPort};
    root ${served};
    location / { try_files $uri /index.html; }
  }
}
`,
      );
      const version = spawnSync('/usr/sbin/nginx', ['-v'], { encoding: 'utf8' }).stderr.trim();
      console.log(`  nginx: ${version}, worker_processes 1, the same extracted files as root, try_files $uri /index.html, gzip off (default);`);
      console.log(http.split('\n').map((l) => `    ${l.trim()}`).join('\n'));
      nginx = spawn('/usr/sbin/nginx', ['-p', prefix, '-c', conf], { stdio: 'inherit' });
      await new Promise((r) => setTimeout(r, 500));
      nginxUrl = `http://127.0.0.1:${nginxPort}${urlPath}`;
    } else console.log('  nginx: not installed (apt-get install -y nginx), comparison skipped');

    await cannon(gatewayUrl, host); // warm-up (JIT, caches)
    if (nginxUrl) await cannon(nginxUrl, 'localhost');
    const gw: Awaited<ReturnType<typeof cannon>>[] = [];
    const ng: Awaited<ReturnType<typeof cannon>>[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate who goes first, so a slow phase of the machine does not always hit the same side.
      const order = round % 2 === 0 ? ['gw', 'ng'] : ['ng', 'gw'];
      for (const side of order) {
        if (side === 'gw') gw.push(await cannon(gatewayUrl, host));
        else if (nginxUrl) ng.push(await cannon(nginxUrl, 'localhost'));
      }
      const last = (xs: typeof gw) => xs[xs.length - 1];
      console.log(`  round ${round + 1}: gateway ${last(gw).rps} req/s (p99 ${last(gw).p99} ms, ${last(gw).bytesPerReq} B/resp, non-2xx ${last(gw).non2xx}, errors ${last(gw).errors})` +
        (nginxUrl ? `, nginx ${last(ng).rps} req/s (p99 ${last(ng).p99} ms, ${last(ng).bytesPerReq} B/resp, non-2xx ${last(ng).non2xx}, errors ${last(ng).errors}), ratio ${(last(gw).rps / last(ng).rps).toFixed(2)}` : ''));
    }
    nginx?.kill('SIGQUIT');
    const gwMed = median(gw.map((r) => r.rps));
    console.log(`  gateway: median ${Math.round(gwMed)} req/s, best ${Math.max(...gw.map((r) => r.rps))}`);
    if (nginxUrl) {
      const ngMed = median(ng.map((r) => r.rps));
      console.log(`  nginx:   median ${Math.round(ngMed)} req/s, best ${Math.max(...ng.map((r) => r.rps))}`);
      console.log(`  ratio gateway/nginx: ${(gwMed / ngMed).toFixed(2)} of medians, ${median(gw.map((r, i) => r.rps / ng[i].rps)).toFixed(2)} median of rounds, ${(Math.max(...gw.map((r) => r.rps)) / Math.max(...ng.map((r) => r.rps))).toFixed(2)} of bests (goal >= 0.60)`);
    }
  }

  if (only === undefined || only === 'deploy') {
    // ---- 2. deploy of a 5,000-file ~50 MB zip vs unzip
    const bigZip = path.join(dataDir, 'big.zip');
    const files = Array.from({ length: 5000 }, (_, i) => ({ name: i === 0 ? 'index.html' : `assets/d${i % 50}/f${i}.bin`, data: i === 0 ? Buffer.from('<title>big</title>') : crypto.randomBytes(10 * 1024) }));
    await zipOf(files, bigZip);
    const zipMb = fs.statSync(bigZip).size / 1048576;
    console.log(`deploy of ${files.length} files, ${zipMb.toFixed(1)} MB zip`);
    const canUnzip = has('unzip');
    console.log(`  API: multipart POST by ${useCurl ? 'curl (own process)' : 'fetch in this process (curl not installed)'} to the API on 127.0.0.1 (PGlite, disk ObjectStore), timed until the answer (deployment live); unzip: \`unzip -q zip -d fresh-dir\``);
    console.log(`  ${DEPLOYS} runs each, alternating; before every timed run of either: sync + 0.5 s pause; outputs of both kept until the end (no deletes in between)`);
    const deploys: number[] = [];
    const unzips: number[] = [];
    // Both sides start from the same disk state: pending writes (and the previous run's deletes)
    // flushed by sync(1), then a short pause. Without this, whichever runs right after the other's
    // 50 MB of writes and 5,000 deletes measures the disk's writeback instead of itself.
    const settle = async () => {
      await run('sync');
      await new Promise((r) => setTimeout(r, 500));
    };
    const unzipDirs: string[] = [];
    for (let i = 0; i < DEPLOYS; i++) {
      await settle();
      deploys.push((await deploy(bigZip, 'Static')).ms);
      if (!canUnzip) continue;
      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-unzip-'));
      unzipDirs.push(out);
      await settle();
      const started = performance.now();
      await run('unzip', ['-q', bigZip, '-d', out]);
      unzips.push(performance.now() - started);
    }
    for (const dir of unzipDirs) fs.rmSync(dir, { recursive: true, force: true });
    const ms = (xs: number[]) => xs.map((m) => `${Math.round(m)}`).join(', ') + ' ms';
    console.log(`  API deploy (upload + check + extract + store + switch): ${ms(deploys)}; best ${Math.round(Math.min(...deploys))} ms, median ${Math.round(median(deploys))} ms`);
    if (canUnzip) {
      console.log(`  unzip -q: ${ms(unzips)}; best ${Math.round(Math.min(...unzips))} ms, median ${Math.round(median(unzips))} ms`);
      console.log(`  ratio deploy/unzip: ${(Math.min(...deploys) / Math.min(...unzips)).toFixed(2)} of bests, ${(median(deploys) / median(unzips)).toFixed(2)} of medians (goal <= 1.5)`);
    }

  }

  if (only === undefined || only === 'redeploy') {
    // ---- 3. instant redeploy: a 1-file change to a 5,000-file site, beside a full zip deploy of it
    const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
    const files = Array.from({ length: 5000 }, (_, i) => ({ name: i === 0 ? 'index.html' : `assets/d${i % 50}/f${i}.js`, data: i === 0 ? Buffer.from('<title>v0</title>') : crypto.randomBytes(2 * 1024) }));
    const api = (p: string, init: RequestInit) => fetch(`${base}/api/project/${project.id}${p}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) } });
    const manifestDeploy = async (set: { name: string; data: Buffer }[]) => {
      const byDigest = new Map(set.map((f) => [sha(f.data), f.data]));
      const t0 = performance.now();
      const m = await api('/deployments/manifest', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'Static', files: Object.fromEntries(set.map((f) => [f.name, sha(f.data)])) }) });
      if (m.status !== 200) throw new Error(`manifest: ${m.status} ${await m.text()}`);
      const { deployment_id: id, missing } = (await m.json()) as { deployment_id: string; missing: string[] };
      const t1 = performance.now();
      for (let i = 0; i < missing.length; i += 500) {
        const form = new FormData();
        for (const d of missing.slice(i, i + 500)) form.append('file', new Blob([new Uint8Array(byDigest.get(d)!)]), d);
        const u = await api(`/deployments/${id}/files`, { method: 'POST', body: form });
        if (u.status !== 200) throw new Error(`upload: ${u.status} ${await u.text()}`);
      }
      const t2 = performance.now();
      const f = await api(`/deployments/${id}/finish`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      if (f.status !== 200) throw new Error(`finish: ${f.status} ${await f.text()}`);
      const t3 = performance.now();
      return { missing: missing.length, manifest: t1 - t0, upload: t2 - t1, finish: t3 - t2, t0 };
    };
    /** Until a GET of the site answers `want` (the first request after a switch fills the gateway's caches). */
    const liveAt = async (want: string) => {
      // node:http, not fetch: fetch drops a Host header.
      const get = () =>
        new Promise<string>((resolve, reject) => {
          const req = httpGet({ host: '127.0.0.1', port, path: '/', headers: { host } }, (res) => {
            let b = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (b += c));
            res.on('end', () => resolve(b));
          });
          req.on('error', reject);
        });
      for (let i = 0; i < 10_000; i++) if ((await get()).includes(want)) return performance.now();
      throw new Error(`${want} never went live`);
    };
    const zipFile = path.join(dataDir, 'redeploy.zip');
    await zipOf(files, zipFile);
    console.log(`instant redeploy: a 1-file change (index.html) to a ${files.length}-file site (${(files.length * 2) / 1024} MB of 2 KB files)`);
    console.log('  manifest flow: fetch in this process: POST manifest, POST the missing files, POST finish, then GET / until the new file answers; times to that GET');
    const first = await manifestDeploy(files);
    console.log(`  first manifest deploy (uploads everything): ${first.missing} files asked; manifest ${Math.round(first.manifest)} ms, upload ${Math.round(first.upload)} ms, finish ${Math.round(first.finish)} ms`);
    const lives: number[] = [];
    const zips: number[] = [];
    for (let i = 1; i <= DEPLOYS; i++) {
      files[0] = { name: 'index.html', data: Buffer.from(`<title>v${i}</title>`) };
      const r = await manifestDeploy(files);
      const live = (await liveAt(`v${i}<`)) - r.t0;
      lives.push(live);
      console.log(`  run ${i}: ${r.missing} file asked; manifest ${Math.round(r.manifest)} ms, upload ${Math.round(r.upload)} ms, finish ${Math.round(r.finish)} ms; new file live after ${Math.round(live)} ms`);
      files[0] = { name: 'index.html', data: Buffer.from(`<title>z${i}</title>`) };
      await zipOf(files, zipFile);
      const zt0 = performance.now();
      await deploy(zipFile, 'Static');
      zips.push((await liveAt(`z${i}<`)) - zt0);
    }
    console.log(`  1-file manifest redeploy, live: median ${Math.round(median(lives))} ms, best ${Math.round(Math.min(...lives))} ms (goal < 100 ms)`);
    console.log(`  full zip deploy of the same site (zip made beforehand), live: median ${Math.round(median(zips))} ms, best ${Math.round(Math.min(...zips))} ms`);
  }
  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
