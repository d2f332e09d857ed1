// The CORS policy's decisions on a bare Fastify app, with the allowed origins in memory: the cases
// the platform's own routes can't show (a route that never names its project). The same policy
// through the real routes and database: test/http/app-cors.test.ts.
import Fastify, { type FastifyInstance } from 'fastify';
import { appApiMethods, appCorsPlugin, appRequestHeaders, type AllowedOrigins } from './app-cors';
import type { ProjectRow } from '../modules/projects/projects.tables';

const LISTS: Record<string, string[]> = { p1: ['https://one.example.com'], p2: ['https://two.example.com'] };
const origins: AllowedOrigins = {
  originAllowedForProject: async (projectId, origin) => (LISTS[projectId] ?? []).includes(origin),
  originAllowedAnywhere: async (origin) => Object.values(LISTS).some((list) => list.includes(origin)),
};

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify({ logger: false });
  await app.register(appCorsPlugin, { origins });
  app.get('/api/storage/v1/mine', { onRequest: async (req) => void (req.project = { id: 'p1' } as ProjectRow) }, async () => ({ ok: true }));
  app.get('/api/storage/v1/forgot', async () => ({ ok: true }));
  app.get('/api/storage/v1/fails', async (_req, reply) => reply.code(401).send({ message: 'Missing API key' }));
  app.get('/api/auth/v1/keyless', async (req) => {
    req.authProjectId = 'p2';
    return { ok: true };
  });
  app.get('/api/db/v1/varies', async (_req, reply) => reply.header('vary', 'Accept-Encoding').send({ ok: true }));
  app.get('/api/project/console', async () => ({ ok: true }));
  await app.ready();
});
afterAll(() => app.close());

const get = (url: string, origin: string) => app.inject({ method: 'GET', url, headers: { origin } });
const acao = async (url: string, origin: string) => (await get(url, origin)).headers['access-control-allow-origin'];

test("a project's answer: granted to its own origins only", async () => {
  expect(await acao('/api/storage/v1/mine', 'https://one.example.com')).toBe('https://one.example.com');
  expect(await acao('/api/storage/v1/mine', 'https://two.example.com')).toBeUndefined();
  expect(await acao('/api/auth/v1/keyless', 'https://two.example.com')).toBe('https://two.example.com');
  expect(await acao('/api/auth/v1/keyless', 'https://one.example.com')).toBeUndefined();
});

test('a success that names no project fails closed; an error that names none is readable by any listed origin', async () => {
  expect(await acao('/api/storage/v1/forgot', 'https://one.example.com')).toBeUndefined();
  expect(await acao('/api/storage/v1/fails', 'https://one.example.com')).toBe('https://one.example.com');
  expect(await acao('/api/storage/v1/fails', 'https://two.example.com')).toBe('https://two.example.com');
  expect(await acao('/api/storage/v1/fails', 'https://evil.example.com')).toBeUndefined();
});

test('Vary: Origin joins what the route set; routes outside the app APIs are left alone', async () => {
  expect((await get('/api/db/v1/varies', 'https://one.example.com')).headers.vary).toBe('Accept-Encoding, Origin');
  const console = await get('/api/project/console', 'https://one.example.com');
  expect(console.headers.vary).toBeUndefined();
  expect(console.headers['access-control-allow-origin']).toBeUndefined();
});

test("the preflight's methods and headers come from the contract", () => {
  expect(appApiMethods().split(', ')).toEqual(expect.arrayContaining(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST']));
  expect(appRequestHeaders().split(', ')).toEqual(expect.arrayContaining(['x-api-key', 'authorization', 'content-type', 'range']));
});
