// For the fault tests: platform processes that crash (kill -9 of the whole process group) and
// start again, and the requests, forms and zips sent to them.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { postJson } from '../helpers/http-request';
import { kill9, startPlatform, type Platform } from '../helpers/platform-process';

export { freePort } from '../helpers/platform-process';
export { request } from '../helpers/http-request';

const yazl = require('yazl') as { ZipFile: new () => { addBuffer(b: Buffer, n: string): void; end(): void; outputStream: NodeJS.ReadableStream } };

export const post = (port: number, p: string, body: unknown, token?: string) => postJson(port, `/api${p}`, body, token);

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

/** A platform that can crash (kill -9, its whole process group) and start again on the same port and data. */
export class Server {
  private platform?: Platform;
  constructor(
    readonly port: number,
    readonly env: Record<string, string>,
  ) {}

  get out(): string {
    return this.platform?.output() ?? '';
  }

  async start(): Promise<void> {
    this.platform = await startPlatform(this.env, this.port, { group: true });
  }

  async kill9(): Promise<void> {
    if (this.platform) await kill9(this.platform);
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

