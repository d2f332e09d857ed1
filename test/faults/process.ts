// Real server processes for the fault tests: started with tsx (as `npm run dev`), killed with -9
// (the whole process group), and plain HTTP to them.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';

const yazl = require('yazl') as { ZipFile: new () => { addBuffer(b: Buffer, n: string): void; end(): void; outputStream: NodeJS.ReadableStream } };

const root = path.resolve(__dirname, '..', '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const serverTs = path.join(root, 'server/src/server.ts');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface Answer {
  status: number;
  body: Buffer;
  json<T = Record<string, unknown>>(): T;
}

export function call(port: number, method: string, p: string, headers: Record<string, string> = {}, body?: Buffer | string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: p, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const buf = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, body: buf, json: () => JSON.parse(buf.toString()) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export const post = (port: number, p: string, body: unknown, token?: string) =>
  call(port, 'POST', `/api${p}`, { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, JSON.stringify(body));

export function multipart(fields: Record<string, string>, file: { name: string; type: string; data: Buffer }) {
  const boundary = '----crash' + crypto.randomBytes(8).toString('hex');
  const head = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('');
  const body = Buffer.concat([
    Buffer.from(`${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

export function zipOf(files: { name: string; data: Buffer }[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const f of files) zip.addBuffer(f.data, f.name);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

export class Server {
  child!: ChildProcess;
  out = '';
  constructor(
    readonly port: number,
    readonly env: Record<string, string>,
  ) {}

  async start(): Promise<void> {
    this.child = spawn(tsx, [serverTs], {
      // As `npm run dev` runs it: its workers resolve tsx from the repository.
      cwd: root,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A process group of its own: tsx runs the server in a child, and a SIGKILL is not relayed.
      detached: true,
    });
    this.child.stdout!.on('data', (c) => (this.out += c));
    this.child.stderr!.on('data', (c) => (this.out += c));
    for (let i = 0; i < 600; i++) {
      if (this.child.exitCode !== null) break;
      const up = await call(this.port, 'GET', '/api/health').then((r) => r.status === 200, () => false);
      if (up) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    this.kill9();
    throw new Error(`the server did not start:\n${this.out.slice(-4000)}`);
  }

  kill9(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((r) => this.child.once('exit', () => r()));
    // tsx runs the server in a child of its own: kill the whole group at once, as a crash would.
    process.kill(-this.child.pid!, 'SIGKILL');
    return exited;
  }
}

/** Every file under a folder, relative to it (empty when it does not exist). */
export function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

