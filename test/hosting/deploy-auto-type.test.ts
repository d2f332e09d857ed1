// A deploy with type "auto": the platform reads the type from the archive (deploy/guess-type.ts),
// records it on the deployment, and every deploy's answer carries the live site's address.
import { buildTestApp, type TestApp } from '../helpers/app';
import { createSiteProject, deploy, site, type SiteProject } from './site-helpers';
import { makeZip } from './zips';

let t: TestApp;
let p: SiteProject;

beforeAll(async () => {
  t = await buildTestApp();
  p = await createSiteProject(t);
});
afterAll(() => t.close());

test('built files deployed with "auto" go live as a Static site, and the answer names the site URL', async () => {
  const res = await deploy(t, p, makeZip([{ name: 'index.html', data: '<!doctype html><title>auto</title>' }]), 'auto');
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body.message).toBe('Project deployed!');
  expect(body.deployment.type).toBe('Static');
  expect(body.site_url).toMatch(new RegExp(`^https?://${p.subdomain}\\.${t.config.platformDomain.replace(/\./g, '\\.')}(:\\d+)?$`));
  expect((await site(t, p, '/')).body).toContain('<title>auto</title>');
});

test('a type named by hand still wins over detection', async () => {
  const res = await deploy(t, p, makeZip([{ name: 'index.html', data: '<title>react</title>' }, { name: 'package.json', data: '{"dependencies":{"fastify":"5"}}' }]), 'React');
  expect(res.statusCode).toBe(200);
  expect(res.json().deployment.type).toBe('React');
});
