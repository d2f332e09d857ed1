// A plain HTTP request to 127.0.0.1:port over a real socket of its own (not inject, no keep-alive):
// for servers started as processes (`npm start` in tests, the platform processes of
// test/helpers/platform-process.ts, benches). Answers the status, the headers and the body.
import http from 'node:http';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as UTF-8 text. */
  body: string;
  bytes: Buffer;
  json<T = Record<string, unknown>>(): T;
}

export function request(port: number, method: string, url: string, body?: Buffer | string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // agent: false, a new connection each time (a balancer in front picks per request anyway).
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const text = bytes.toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, bytes, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A JSON POST, with a bearer token when given. */
export const postJson = (port: number, url: string, body: unknown, token?: string, headers: Record<string, string> = {}) =>
  request(port, 'POST', url, JSON.stringify(body), { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers });
