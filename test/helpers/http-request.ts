// A plain HTTP request to 127.0.0.1:port over a real socket (not inject): for servers started as
// processes (`npm start` in tests, benches). Answers the status and the body as text.
import http from 'node:http';

export function request(port: number, method: string, url: string, body?: Buffer | string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers }, (res) => {
      let data = '';
      res.on('data', (c) => (data += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
