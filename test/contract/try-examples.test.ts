// "Try it out" in Swagger UI sends an operation's examples as they are. Here every operation of the
// served contract is sent its own examples (path and query parameter examples, the JSON request
// body example) with valid credentials of a developer who owns a project, and the whole database
// is compared before and after: an example must change nothing (the account renamed to "string"
// by an example-less /account-details was the reason), apart from the few calls named below whose
// whole purpose is a side effect and that take nothing to aim it, and the calls that create
// something, whose examples succeed on a fresh account (tried last, on a platform of their own).
import { loadSpec } from '../../server/src/http/contract';
import { buildTestApp, registerDeveloper, type TestApp } from '../helpers/app';

jest.setTimeout(180_000);

type Json = Record<string, any>;

/** Calls that change something whatever they are sent, and why that is harmless. */
const CHANGES_BY_DESIGN: Record<string, string> = {
  toggleMfa: 'starts an enrollment (a pending secret); two-factor stays off until a code confirms it',
  sendEmailVerification: 'mails the caller a new verification link',
  endUserSendVerification: 'mails the signed-in end user a new verification link',
  submitContactMessage: 'stores the message for the team',
  // Their address is the one the creation examples below create, so once those ran it exists.
  forgotPassword: 'mails a reset link to the example account (created by the registerAccount example)',
  forgotPasswordAlias: 'the same as forgotPassword',
  endUserRequestPasswordReset: 'mails a reset link to the example end user (created by the endUserSignUp example)',
};

/** Calls whose example creates something on a fresh account, as a newcomer trying them expects. */
const CREATES: Record<string, string> = {
  registerAccount: 'the account ada@example.com',
  createProject: 'the project at todo-k7q2m',
  endUserSignUp: 'the end user grace@example.com',
  createOrder: 'an unpaid order for Pro (no plan changes)',
  startPayment: 'an unpaid order for Pro, as createOrder',
};
/**
 * Tables that count or log calls, not data a developer owns; and project_databases, the record of
 * a project's own schema, which the platform creates on the project's first database call.
 */
const VOLATILE = new Set(['rate_limits', 'usage_requests', 'usage_active_users', 'activity_log', 'platform_instances', 'site_traffic', 'project_errors', 'project_databases']);

let t: TestApp;
const creds: Record<string, Record<string, string>> = {};

async function snapshot(): Promise<Map<string, string>> {
  const tables = await t.database.query<{ s: string; n: string }>(
    `SELECT table_schema AS s, table_name AS n FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2`,
  );
  const out = new Map<string, string>();
  for (const { s, n } of tables) {
    if (VOLATILE.has(n) || n.startsWith('__drizzle')) continue;
    const q = (x: string) => `"${x.replace(/"/g, '""')}"`;
    const [row] = await t.database.query<{ c: number; h: string }>(`SELECT count(*)::int AS c, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM ${q(s)}.${q(n)} x`);
    out.set(`${s}.${n}`, `${row.c}:${row.h}`);
  }
  return out;
}

function changed(a: Map<string, string>, b: Map<string, string>): string[] {
  const keys = new Set([...a.keys(), ...b.keys()]);
  return [...keys].filter((k) => a.get(k) !== b.get(k));
}

beforeAll(async () => {
  t = await buildTestApp();
  const dev = await registerDeveloper(t);
  creds.bearerAuth = { authorization: `Bearer ${dev.token}` };
  const created = await t.post('/create-project', { projectName: 'Examples', subdomain: `examples-${Date.now()}` }, dev.token);
  expect(created.statusCode).toBe(200);
  const projectId = created.json().project.id as string;
  const bucketKey = (await t.post(`/project/${projectId}/bucket-details`, {}, dev.token)).json().api_key as string;
  const authKey = (await t.post(`/project/${projectId}/authentication-details`, {}, dev.token)).json().api_key as string;
  creds.bucketKey = { 'x-api-key': bucketKey };
  creds.authKey = { 'x-api-key': authKey };
  // The newer scheme names (header X-Hostbase-Key / X-Hostbase-User-Token): the key with the most
  // rights, so that an example that could change anything would.
  creds.projectKey = { 'x-hostbase-key': bucketKey };
  const signup = await t.post('/auth/v1/signup', { email: 'examples-user@example.com', password: 'tangerine mosaic 42' }, undefined, { 'x-api-key': authKey });
  expect(signup.statusCode).toBe(200);
  const access = signup.json().access_token as string;
  creds.endUserBearer = { authorization: `Bearer ${access}` };
  creds.endUserToken = { 'x-hostbase-user-token': access };
});
afterAll(() => t.close());

const spec = loadSpec() as unknown as { paths: Record<string, Record<string, Json>>; components: Json; security?: Json[] };
const ref = (node: Json): Json => (node?.$ref ? ref(node.$ref.split('/').slice(1).reduce((o: Json, k: string) => o[k], spec as Json)) : node);
const cases = Object.entries(spec.paths).flatMap(([p, item]) =>
  Object.entries(item)
    .filter(([, op]) => op && typeof op === 'object' && op.operationId)
    .map(([method, op]) => ({ id: op.operationId as string, method: method.toUpperCase(), path: p, op })),
);

test.each(cases)('$id: its examples, as Swagger UI sends them, change nothing', async ({ id, method, path, op }) => {
  const content = op.requestBody ? ref(op.requestBody).content : undefined;
  if (content && !content['application/json']) return; // multipart uploads: Swagger UI sends no file of its own
  const ok = Object.entries(op.responses as Json).find(([s]) => s.startsWith('2'));
  if (ok && ref(ok[1]).content?.['text/event-stream']) return; // a live stream never ends

  let url = '/api' + path;
  const query: string[] = [];
  for (const raw of op.parameters ?? []) {
    const param = ref(raw);
    const example = param.example ?? param.schema?.example;
    if (param.in === 'path') {
      expect(example).toBeDefined(); // a path parameter without an example: Swagger UI can't pre-fill it
      url = url.replace(`{${param.name}}`, encodeURIComponent(String(example)));
    } else if (param.in === 'query' && example !== undefined) query.push(`${param.name}=${encodeURIComponent(String(example))}`);
  }
  if (query.length) url += '?' + query.join('&');
  const alternatives: Json[] = op.security ?? spec.security ?? [{ bearerAuth: [] }];
  const usable = alternatives.find((alt) => Object.keys(alt).every((s) => creds[s])) ?? {};
  const headers = Object.assign({}, ...Object.keys(usable).map((s) => creds[s])) as Record<string, string>;
  const body = content?.['application/json']?.example;

  const before = await snapshot();
  const res = await t.app.inject({ method: method as 'POST', url, headers, ...(body !== undefined ? { payload: body } : {}) });
  const after = await snapshot();
  expect({ id, status: res.statusCode < 500 ? 'not 5xx' : `${res.statusCode} ${res.body}` }).toEqual({ id, status: 'not 5xx' });
  if (CHANGES_BY_DESIGN[id] || CREATES[id]) return;
  expect({ id, status: res.statusCode, changed: changed(before, after) }).toEqual({ id, status: res.statusCode, changed: [] });
});

test('the account-details example only reads (the account is not renamed)', async () => {
  const op = spec.paths['/account-details'].post;
  expect(op.requestBody.content['application/json'].example).toEqual({});
});

test('on a fresh platform the creation examples succeed as they are: an account, its project, an end user, an order', async () => {
  const fresh = await buildTestApp();
  try {
    const example = (p: string) => spec.paths[p].post.requestBody.content['application/json'].example as Json;
    const registered = await fresh.post('/register', example('/register'));
    expect(registered.statusCode).toBe(200);
    const token = registered.json().token as string;
    const project = await fresh.post('/create-project', example('/create-project'), token);
    expect(project.statusCode).toBe(200);
    const projectId = project.json().project.id as string;
    const keys = (await fresh.post(`/project/${projectId}/api-keys`, {}, token)).json() as { publishable_key: string };
    const signUp = await fresh.post('/auth/v1/signup', example('/auth/v1/signup'), undefined, { 'x-hostbase-key': keys.publishable_key });
    expect(signUp.statusCode).toBe(200);
    expect((await fresh.post('/create-order/', example('/create-order/'), token)).statusCode).toBe(200);
    expect((await fresh.post('/pay', example('/pay'), token)).statusCode).toBe(200);
  } finally {
    await fresh.close();
  }
});
