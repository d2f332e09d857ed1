// One tenant's rules cannot freeze the platform: a 47-byte _headers whose pattern backtracked
// (`/*a*a*a*a*a*a*b`: 74 a's took 8 s on the main thread, 80 took 25 s, every other tenant and
// the API waiting) and placeholder-heavy _redirects are matched in work linear in the path. No
// time is asserted: the requests below would take years as regular expressions, and the
// matcher's steps are counted.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { matcherSteps } from '../../server/src/modules/hosting/deploy/path-pattern';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createSiteProject, deploy, type SiteProject } from './site-helpers';
import { makeZip } from './zips';

jest.setTimeout(60_000);

let t: TestApp;
let port: number;
let p: SiteProject;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
}

function get(url: string, host?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: url, headers: host ? { host } : {}, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  p = await createSiteProject(t);
  const res = await deploy(
    t,
    p,
    makeZip([
      { name: 'index.html', data: '<title>home</title>' },
      { name: '_headers', data: '/*a*a*a*a*a*a*b\n  X-Probe: 1\n' },
      { name: '_redirects', data: `${Array.from({ length: 16 }, (_, i) => `/:p${i}`).join('')} /flat 302\n/:a/:b/:c/:d/* /four/:d/:splat 302\n` },
    ]),
    'Static',
  );
  expect(res.statusCode).toBe(200);
});
afterAll(() => t.close());

test('the 47-byte _headers: the site answers rightly and /api/health is answered alongside', async () => {
  const a = 'a'.repeat(8000);
  const before = matcherSteps.count;
  const [miss, health, hit] = await Promise.all([get(`/${a}`, p.host), get('/api/health'), get(`/${a}b`, p.host)]);
  expect(health.status).toBe(200);
  expect(miss.status).toBe(404);
  expect(miss.headers['x-probe']).toBeUndefined();
  expect(hit.status).toBe(404);
  expect(hit.headers['x-probe']).toBe('1');
  // Two site requests (each may be matched by both doors) over ~8,000 characters.
  expect(matcherSteps.count - before).toBeLessThan(4 * 10 * 8000);
  expect((await get('/api/health')).status).toBe(200);
});

test('placeholder-heavy _redirects on a long path: linear work, right answers', async () => {
  const long = `/${'x'.repeat(6000)}/y/z/w/${'v/'.repeat(1000)}u`;
  const before = matcherSteps.count;
  const [flat, id, health] = await Promise.all([get(`${'/s'.repeat(16)}`, p.host), get(long, p.host), get('/api/health')]);
  expect(health.status).toBe(200);
  expect(flat).toMatchObject({ status: 302, headers: { location: '/flat' } });
  expect(id).toMatchObject({ status: 302, headers: { location: `/four/w/${'v/'.repeat(1000)}u` } });
  expect(matcherSteps.count - before).toBeLessThan(4 * 10 * long.length);
});
