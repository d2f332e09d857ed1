// Custom domains are kept in each instance's memory (where a Host goes, unknown names included)
// and dropped by the database's notices (migrations/0025), not after a TTL: a domain verified or
// removed through one instance is routed accordingly by another one at once, and a name nobody
// claimed costs one query per instance, not one per request.
import { buildTestApp, secondInstance, type TestApp } from '../helpers/app';
import { createProject, deploy, makeZip, onPlan, registerDeveloper, type Project } from '../helpers/factories';
import { startDomainDns, type DomainDns } from './dns';
import type { DomainsService } from '../../server/src/modules/domains/domains.service';

const PLATFORM = 'hostbase.test';
const HOST = 'www.notices.example';

let t: TestApp;
let b: Awaited<ReturnType<typeof secondInstance>>;
let dns: DomainDns;
let p: Project;

const domainsOf = (app: { domains?: unknown }) => app.domains as DomainsService;

beforeAll(async () => {
  dns = await startDomainDns();
  t = await buildTestApp({ PLATFORM_DOMAIN: PLATFORM, DNS_SERVERS: dns.server }, { domains: { renewCheckMs: 0, issuer: { issue: () => Promise.reject(new Error('no CA in this test')) } } });
  b = await secondInstance(t);
  const dev = await registerDeveloper(t);
  await onPlan(t, dev, 'pro');
  p = await createProject(t, dev);
  expect((await deploy(t, p, makeZip([{ name: 'index.html', data: '<h1>noticed</h1>' }]), 'Static')).statusCode).toBe(200);
}, 60_000);
afterAll(async () => {
  await b?.close();
  await t?.close();
  await dns?.close();
}, 30_000);

test('a domain added, verified and removed on one instance is routed so by the other at once', async () => {
  const other = domainsOf(b.app);
  // The other instance has looked the name up already (and keeps "not a custom domain").
  expect(await other.route(HOST)).toBeUndefined();

  expect((await t.post(`/project/${p.id}/hosting/add_domain`, { hostname: HOST }, p.dev.token)).statusCode).toBe(200);
  expect(await other.route(HOST)).toMatchObject({ hostname: HOST, subdomain: p.subdomain, verified: false });

  dns.set(HOST, [{ type: 'CNAME', value: `${p.subdomain}.${PLATFORM}` }]);
  const verified = await t.post(`/project/${p.id}/hosting/verify_domain`, { hostname: HOST }, p.dev.token);
  expect(verified.json().message).toBe('verified');
  expect(await other.route(HOST)).toMatchObject({ verified: true });
  const served = await b.app.inject({ method: 'GET', url: '/', headers: { host: HOST } });
  expect(served.payload).toContain('noticed');

  expect((await t.post(`/project/${p.id}/hosting/remove_domain`, { hostname: HOST }, p.dev.token)).statusCode).toBe(200);
  expect(await other.route(HOST)).toBeUndefined();
  expect((await b.app.inject({ method: 'GET', url: '/', headers: { host: HOST } })).payload).not.toContain('noticed');
}, 30_000);

test('a name nobody claimed is read from the database once, not on every request', async () => {
  const other = domainsOf(b.app);
  const repo = (other as unknown as { d: { repo: { route: (h: string) => Promise<unknown> } } }).d.repo;
  const read = repo.route.bind(repo);
  let reads = 0;
  repo.route = (h: string) => {
    reads++;
    return read(h);
  };
  try {
    for (let i = 0; i < 20; i++) expect(await other.route('nobody.claimed.example')).toBeUndefined();
    expect(reads).toBe(1);
  } finally {
    repo.route = read;
  }
});
