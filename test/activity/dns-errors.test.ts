// A verified mail domain whose DNS stops checking out is a high error of its project, told once
// (not on every check while it stays broken).
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, registerDeveloper } from '../helpers/factories';
import { startTestDns, type TestDns } from '../mail/dns-server';

let t: TestApp;
let dns: TestDns;

beforeAll(async () => {
  dns = await startTestDns();
  t = await buildTestApp({ PLATFORM_DOMAIN: 'hostbase.test', DNS_SERVERS: dns.server });
});
afterAll(async () => {
  await t.close();
  await dns.close();
});

test('verified, then the records vanish: one dns_unverified error (high); a domain never verified raises none', async () => {
  const dev = await registerDeveloper(t);
  const project = await createProject(t, dev);
  const smtp = (op: string, body: unknown) => t.post(`/project/${project.id}/smtp/${op}`, body, dev.token);
  const errors = async () => (await t.post(`/project/${project.id}/errors`, {}, dev.token)).json().errors as { kind: string; severity: string; message: string }[];

  expect((await smtp('add_domain', { domain: 'shop.example' })).statusCode).toBe(200);
  expect((await smtp('smtp_domain_verify', { domain: 'shop.example' })).json().message).not.toBe('verified');
  expect(await errors()).toEqual([]); // never verified: not "stopped" verifying

  const records = (await smtp('smtp_domain_details', { project_id: project.id })).json().dnsRecords;
  dns.publish('shop.example', records);
  expect((await smtp('smtp_domain_verify', { domain: 'shop.example' })).json()).toEqual({ message: 'verified' });
  expect(await errors()).toEqual([]);

  dns.zone.clear();
  const broken = await smtp('smtp_domain_verify', { domain: 'shop.example' });
  expect(broken.statusCode).toBe(200);
  const [error, ...rest] = await errors();
  expect(rest).toEqual([]);
  expect(error).toMatchObject({ kind: 'dns_unverified', severity: 'high' });
  expect(error.message).toContain('shop.example');

  await smtp('smtp_domain_verify', { domain: 'shop.example' });
  expect(await errors()).toHaveLength(1);
});
