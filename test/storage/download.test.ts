// Share links of shared files: both paths (/api/s3/... and the bucket domain's /s3/...), headers,
// conditional and ranged requests, and the sandbox that keeps an uploaded HTML file from running script.
import { buildTestApp, type TestApp } from '../helpers/app';
import { developerWithProject, shareFile, upload } from './helpers';

// Set-up registers developers (scrypt) and opens a database; generous under a loaded machine.
jest.setTimeout(30_000);

let t: TestApp;
let file: { object_id: string };
let url: string;
const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));

beforeAll(async () => {
  t = await buildTestApp();
  const { dev, project } = await developerWithProject(t);
  file = (await upload(t, dev.token, project.id, [{ name: 'clip «1».mp4', type: 'video/mp4', content: bytes }])).json().file;
  url = await shareFile(t, dev.token, project.id, file.object_id);
});
afterAll(() => t.close());

const get = (path: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: path, headers });

describe('downloadObject', () => {
  it.each([['the bucket domain root', ''], ['the API', '/api']])('streams the bytes at %s with their headers', async (_label, prefix) => {
    const res = await get(prefix + url);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload).toEqual(bytes);
    expect(res.headers).toMatchObject({
      'content-type': 'video/mp4',
      'content-length': '1000',
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'",
      'cache-control': expect.stringContaining('private'),
      etag: expect.stringMatching(/^"[0-9a-f]{32}"$/),
    });
    expect(new Date(res.headers['last-modified'] as string).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(res.headers['content-disposition']).toBe(`inline; filename="clip _1_.mp4"; filename*=UTF-8''clip%20%C2%AB1%C2%BB.mp4`);
  });

  it('answers attachment with ?download=1', async () => {
    const res = await get(url + '?download=1');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="clip _1_.mp4"/);
    expect((await get('/api' + url + '?download=true')).headers['content-disposition']).toMatch(/^attachment;/);
    expect((await get('/api' + url + '?download=maybe')).statusCode).toBe(400);
  });

  it('answers 304 to a matching If-None-Match, and 200 to another etag', async () => {
    const { etag } = (await get(url)).headers;
    const same = await get(url, { 'if-none-match': etag as string });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');
    expect(same.headers.etag).toBe(etag);
    expect((await get(url, { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
    expect((await get(url, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    const lastModified = (await get(url)).headers['last-modified'] as string;
    expect((await get(url, { 'if-modified-since': lastModified })).statusCode).toBe(304);
  });

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=990-', 990, 999],
    ['bytes=-10', 990, 999],
    ['bytes=500-5000', 500, 999],
    ['bytes=0-0', 0, 0],
  ])('serves %s as 206 with Content-Range', async (range, start, end) => {
    const res = await get(url, { range });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/1000`);
    expect(res.headers['content-length']).toBe(String(end - start + 1));
    expect(res.rawPayload).toEqual(bytes.subarray(start, end + 1));
  });

  it.each(['bytes=1000-', 'bytes=2000-3000', 'bytes=-0'])('answers 416 to the unsatisfiable %s', async (range) => {
    const res = await get(url, { range });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */1000');
    expect(res.json().message).toMatch(/range/i);
  });

  it('serves the whole file for ranges it does not do (several, malformed) and a stale If-Range', async () => {
    for (const headers of [{ range: 'bytes=0-1,5-6' }, { range: 'items=0-1' }, { range: 'bytes=0-10', 'if-range': '"stale"' }] as Record<string, string>[]) {
      const res = await get(url, headers);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload).toEqual(bytes);
    }
    const etag = (await get(url)).headers.etag as string;
    expect((await get(url, { range: 'bytes=0-10', 'if-range': etag })).statusCode).toBe(206);
  });

  it('answers 404 JSON to a wrong segment, an unknown id, or junk, on both paths', async () => {
    const [, , , segment, id] = url.split('/');
    expect(id).toBe(file.object_id);
    for (const path of [
      // Another last character (one that is not the segment's own: a fixed 'x' was the same 1 time in 64).
      `/s3/object-storage/${segment!.slice(0, -1)}${segment!.endsWith('x') ? 'y' : 'x'}/${id}`,
      `/s3/object-storage/${segment}/00000000-0000-0000-0000-000000000000`,
      `/s3/object-storage/${segment}/not-a-uuid`,
      `/s3/object-storage/${'x'.repeat(500)}/${id}`,
    ]) {
      for (const prefix of ['', '/api']) {
        const res = await get(prefix + path);
        expect([400, 404, 414]).toContain(res.statusCode); // 414: find-my-way's parameter length cap
        expect(res.headers['content-type']).toMatch(/json/);
        expect(res.body).not.toContain('clip');
      }
    }
  });
});

describe('an uploaded HTML file', () => {
  it('is served with the sandbox CSP and nosniff, so its script cannot run on our origin', async () => {
    const { dev, project } = await developerWithProject(t);
    const html = '<html><body><script>fetch("/api/projects",{method:"POST"})</script></body></html>';
    const f = (await upload(t, dev.token, project.id, [{ name: 'evil.html', type: 'text/html', content: html }])).json().file;
    const res = await get(await shareFile(t, dev.token, project.id, f.object_id));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html');
    expect(res.headers['content-security-policy']).toMatch(/^sandbox;/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const svg = (await upload(t, dev.token, project.id, [{ name: 'x.svg', content: '<svg onload="alert(1)"/>' }])).json().file;
    const svgRes = await get(await shareFile(t, dev.token, project.id, svg.object_id));
    expect(svgRes.headers['content-type']).toBe('image/svg+xml');
    expect(svgRes.headers['content-security-policy']).toMatch(/^sandbox;/);
  });
});
