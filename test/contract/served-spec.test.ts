// The contract as strangers get it: the served copy names this platform's absolute API address
// (built from PUBLIC_URL), the committed file keeps a templated one.
import YAML from 'yaml';
import { loadSpec } from '../../server/src/http/contract';
import { buildTestApp, type TestApp } from '../helpers/app';

jest.setTimeout(60_000);
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_URL: 'https://hostbase.example.com/' });
});
afterAll(() => t.close());

test('the served spec (JSON and YAML) names {PUBLIC_URL}/api first', async () => {
  const json = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  // First the absolute address (what generated clients take); then the page's own origin for Swagger UI.
  expect(json.json().servers).toEqual([
    { url: 'https://hostbase.example.com/api', description: expect.any(String) },
    { url: '/api', description: expect.any(String) },
  ]);
  const yaml = await t.app.inject({ method: 'GET', url: '/api/openapi.yaml' });
  expect(YAML.parse(yaml.body).servers[0].url).toBe('https://hostbase.example.com/api');
});

test('the committed file keeps a templated server whose default is a local platform', () => {
  const servers = loadSpec().servers as { url: string; variables: Record<string, { default: string }> }[];
  expect(servers).toHaveLength(1);
  expect(servers[0].url).toBe('{publicUrl}/api');
  expect(servers[0].variables.publicUrl.default).toBe('http://localhost:3000');
});

test('another PUBLIC_URL gives another server, and the committed file is not changed by serving', async () => {
  const other = await buildTestApp({ PUBLIC_URL: 'http://127.0.0.1:8080' });
  try {
    const json = await other.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(json.json().servers[0].url).toBe('http://127.0.0.1:8080/api');
  } finally {
    await other.close();
  }
  expect((loadSpec().servers as { url: string }[])[0].url).toBe('{publicUrl}/api');
});
