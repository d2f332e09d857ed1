// One log line per request, carrying its request id and operationId; what the console and load
// balancers poll (x-quiet-log in the contract) is logged at debug unless it failed, so a
// terminal at info is not scrolled by the hosting screen's stats every 5 s.
import { buildTestApp, type TestApp } from '../helpers/app';

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  operationId?: string;
  url?: string;
  status?: number;
  code?: string;
  error?: string;
}

let t: TestApp;
const lines: Line[] = [];
beforeAll(async () => {
  t = await buildTestApp({}, { logger: { level: 'debug', stream: { write: (l: string) => void lines.push(JSON.parse(l) as Line) } } });
});
afterAll(async () => {
  await t.close();
});

const completed = (reqId: string) => lines.filter((l) => l.msg === 'request completed' && l.reqId === reqId);

test('a request is one line at info with its request id and operationId; a refusal says why on that line', async () => {
  const res = await t.app.inject({ method: 'POST', url: '/api/projects', headers: { 'x-request-id': 'req-listed' } });
  expect(res.statusCode).toBe(401);
  expect(completed('req-listed')).toEqual([expect.objectContaining({ level: 30, operationId: 'listProjects', url: '/api/projects', status: 401, code: 'UNAUTHORIZED', error: res.json().message })]);
  expect(lines.filter((l) => l.reqId === 'req-listed' && l.level >= 30)).toHaveLength(1);
});

test('a polled operation that succeeds is logged at debug, with the same fields', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'req-health' } });
  expect(res.statusCode).toBe(200);
  expect(completed('req-health')).toEqual([expect.objectContaining({ level: 20, operationId: 'getHealth', status: 200 })]);
});

test('a polled operation that fails is logged at info', async () => {
  const res = await t.app.inject({ method: 'POST', url: '/api/usage', headers: { 'x-request-id': 'req-usage' } });
  expect(res.statusCode).toBe(401);
  expect(completed('req-usage')).toEqual([expect.objectContaining({ level: 30, operationId: 'getAccountUsage', status: 401 })]);
});
