// A contract-driven property test: for every operation, requests built only from values the
// served contract allows (each one checked against the contract's own schema with ajv before it
// is sent), at their edges: strings at their maxLength and minLength (within `x-maxBytes`),
// non-ASCII text, a NUL in the name of a property a fixed-shape object does not declare (the
// contract's objects are open), names of open maps from their `x-propertyNames`, numbers at their
// bounds. The server must never refuse one with a 400 on grounds the contract does not state:
// a 400 is only allowed for the state-dependent rules the contract describes in words (STATEFUL
// below: confirm fields, a column the table does not have, …). And the other direction: a value
// one past a stated bound is a 400 with a message. Never a 5xx, on either side.
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { operations } from '../../server/src/generated/operations';
import { buildTestApp, type TestApp } from '../helpers/app';
import { makeZip, multipart, onPlan, registerDeveloper } from '../helpers/factories';

jest.setTimeout(180_000);

type Json = Record<string, any>;

/**
 * 400s the contract describes in words, by operation: rules that depend on stored state or on
 * another field (OpenAPI 3.0 can't state them as a schema). Anything else is a contract bug.
 */
const STATEFUL: Record<string, RegExp> = {
  '*': /too common|must not contain your email|invalid or has expired|Start enrollment first|Invalid code|required property 'mfa_code'/i,
  deleteProject: /must equal the project's subdomain/,
  deleteSite: /Type the project's subdomain/,
  dropDbTable: /must equal the table's name/,
  uploadObject: /must match the project in the path/,
  verifyPayment: /signature/i,
  activateDeployment: /still building|failed deployment/,
  setSiteEnv: /given twice|at most 100 variables|at most 64 KiB/,
  createDbTable: /is not a table of this project|has no column|is for .* columns|is the name of another column|no column is the primary key/,
  addDbColumn: /is not a table of this project|has no column|is for .* columns|at most 100 columns/,
  // Rows: the table's columns and types decide (a name the table lacks, a value its type can't hold).
  rows: /has no column|send a string, number or boolean|invalid input syntax|out of range|is required for|must be a string pattern|must be an array of|must be true \(is null\)|must have the same columns|must not be null/,
  uploadDeploymentFiles: /file name must be its SHA-256/,
  // What SQL the box runs is its description's rule (one read-only statement), not a schema's.
  runDbSql: /Only one read-only query/,
  // What the files must hold for the site's type (as a zip's), and runtimes this host lacks.
  createManifestDeployment: /both as a file and as a folder|No index\.html found|need .* on the host/,
  finishDeployment: /still missing|no longer waiting/,
  // The platform's own ceiling on a signed URL's life (STORAGE_SIGNED_URL_MAX_SECONDS) is below the contract's.
  createSignedUrl: /STORAGE_SIGNED_URL_MAX_SECONDS/,
  createSignedUrls: /STORAGE_SIGNED_URL_MAX_SECONDS/,
};
const ROW_OPS = /DbRows$/;

let t: TestApp;
let spec: Json;
let ajv: Ajv;
const creds: Record<string, Record<string, string>> = {};
let projectId: string;
const validators = new Map<object, ValidateFunction>();

/** Whether the contract allows `value` for `schema` (a node of the served document). */
function allows(schema: Json, value: unknown): boolean {
  let v = validators.get(schema);
  if (!v) {
    const rewrite = (node: unknown): unknown =>
      Array.isArray(node) ? node.map(rewrite)
        : node && typeof node === 'object'
          ? Object.fromEntries(Object.entries(node).map(([k, x]) => [k, k === '$ref' && typeof x === 'string' ? `contract${x}` : rewrite(x)]))
          : node;
    v = ajv.compile(rewrite(schema) as object);
    validators.set(schema, v);
  }
  return v(structuredClone(value)) as boolean;
}

function deref(node: unknown): Json {
  let n = node as Json;
  while (n && typeof n === 'object' && typeof n.$ref === 'string') n = (n.$ref as string).slice(2).split('/').reduce((o: Json, k: string) => o[k], spec);
  return n ?? {};
}

/** A schema's own keywords and its allOf branches' together (for reading bounds, not for checking). */
function flat(node: unknown): Json {
  const s = deref(node);
  if (!Array.isArray(s.allOf)) return s;
  const { allOf, ...rest } = s;
  return Object.assign({}, ...allOf.map(flat), rest, { properties: Object.assign({}, ...allOf.map((b: unknown) => flat(b).properties ?? {}), rest.properties ?? {}) });
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
/** Strings worth trying wherever they are allowed: plain, non-ASCII, and the shapes patterns ask for. */
const POOL = ['walker', 'todos', 'Ünïcödé_名前', 'héllo wörld ✓ 😀', 'API_BASE_URL', 'shop.example.com', 'www.example.com', 'Bücher.Example', 'Abcdefg1!', 'ada', 'ada@shop.example', 'https://app.example.com', 'avatars', 'users/photos', 'index.html', 'assets/app.js', '7c9e6679-7425-40de-944b-e07fc1f90ae7', 'a'.repeat(64).replace(/./g, (c, i) => '0123456789abcdef'[i % 16])];

/** Values of a schema the contract allows, edges first; [] when none of the tries fits. */
function candidates(node: unknown, depth = 0): unknown[] {
  const s = flat(node);
  const out: unknown[] = [];
  const push = (v: unknown) => {
    if (out.some((o) => JSON.stringify(o) === JSON.stringify(v))) return;
    if (typeof v === 'string' && s['x-maxBytes'] !== undefined && bytes(v) > s['x-maxBytes']) return;
    if (allows(node as Json, v)) out.push(v);
  };
  // A static site needs nothing but its files: the deploy operations' type, tried first.
  if (s.enum) [...s.enum].sort((a, b) => Number(b === 'Static') - Number(a === 'Static')).forEach(push);
  if (s.example !== undefined) push(s.example);
  if (s.type === 'string' && !s.enum && s.format !== 'binary') {
    const max = Math.min(s.maxLength ?? 64, 100_000);
    const min = Math.max(s.minLength ?? 0, 1);
    for (const p of POOL) push(p);
    if (s.format === 'email') push('walker@example.com');
    push('a'.repeat(max));
    push('a'.repeat(min));
    push('é'.repeat(s['x-maxBytes'] ? Math.floor(s['x-maxBytes'] / 2) : max));
    push(('x'.repeat(max - 2) + '😀').slice(-max));
  }
  if (s.type === 'integer' || s.type === 'number') [s.minimum, s.maximum, s.minimum ?? 1].filter((n) => n !== undefined).forEach(push);
  if (s.type === 'boolean') [false, true].forEach(push);
  if ((s.type === 'array' || s.items) && depth < 6) for (const item of candidates(s.items, depth + 1).slice(0, 2)) push(Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => item));
  if ((s.type === 'object' || s.properties || s.additionalProperties) && depth < 6) for (const v of objects(node, depth)) push(v);
  return out;
}

/** Objects: every property at its first allowed value, then each at its other edges; an extra property named with a NUL where the object is open by default. */
function objects(node: unknown, depth: number): Json[] {
  const s = flat(node);
  const props = Object.entries((s.properties ?? {}) as Json);
  const each = Object.fromEntries(props.map(([k, v]) => [k, candidates(v, depth + 1)]));
  const base: Json = {};
  for (const [k, vals] of Object.entries(each)) if (vals.length) base[k] = vals[0];
  const out = [base];
  for (const [k, vals] of Object.entries(each)) for (const v of vals.slice(1, 4)) out.push({ ...base, [k]: v });
  const names = s['x-propertyNames'];
  if (names) for (const name of candidates(names).slice(0, 3)) out.push({ ...base, [name as string]: s.additionalProperties === true ? 'x' : candidates(s.additionalProperties)[0] });
  if (s.additionalProperties === undefined && props.length) out.push({ ...base, 'extra\u0000name': 'x\u0000y' });
  return out;
}

function authFor(op: Json): Record<string, string> {
  const requirement: Json[] = op.security ?? spec.security ?? [];
  const alt = requirement.find((a) => Object.keys(a).length > 0);
  if (!alt || requirement.some((a) => Object.keys(a).length === 0)) return {};
  return Object.assign({}, ...Object.keys(alt).map((name) => creds[name]));
}

function urlFor(path: string, params: Json[], pick: (p: Json) => unknown): string {
  const filled = path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'projectId' ? projectId : encodeURIComponent(String(pick(params.find((p) => p.name === name)!) ?? 'x'))));
  const query = params.filter((p) => p.in === 'query').map((p) => [p.name, pick(p)]).filter(([, v]) => v !== undefined);
  return '/api' + filled + (query.length ? '?' + query.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&') : '');
}

function judge(o: (typeof operations)[number], op: Json, res: LightMyRequestResponse, sent: string): string | undefined {
  const status = res.statusCode;
  // The SQL box needs PostgreSQL; on PGlite it says so (another change makes it work there).
  if (status === 503 && o.operationId === 'runDbSql' && /needs PostgreSQL/.test(res.body)) return undefined;
  if (status >= 500 && !(status === 501 && op.responses['501'])) return `${status} ${res.body.slice(0, 300)} for ${sent}`;
  if (!op.responses[String(status)]) return `status ${status} is not listed (${res.body.slice(0, 200)}) for ${sent}`;
  if (status !== 400) return undefined;
  const message = String(res.json().message);
  const stateful = [STATEFUL['*'], STATEFUL[o.operationId], ROW_OPS.test(o.operationId) ? STATEFUL.rows : undefined].filter(Boolean) as RegExp[];
  return stateful.some((re) => re.test(message)) ? undefined : `400 "${message}" for allowed ${sent}`;
}

// The operations that change the caller's own credentials or remove the project run last.
const LAST = ['rotateProjectKey', 'endUserSignOut', 'deleteAuthUser', 'deleteProject', 'toggleMfa', 'changePassword', 'getAccountDetails'];
const ordered = [...operations].sort((a, b) => LAST.indexOf(a.operationId) - LAST.indexOf(b.operationId));

beforeAll(async () => {
  t = await buildTestApp();
  spec = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  ajv = new Ajv({ strict: false, allErrors: false });
  addFormats(ajv);
  ajv.addSchema({ ...spec, $id: 'contract' }, 'contract');
  const dev = await registerDeveloper(t);
  await onPlan(t, dev, 'enterprise');
  creds.bearerAuth = { authorization: `Bearer ${dev.token}` };
  projectId = (await t.post('/create-project', { projectName: 'Props', subdomain: `props-${Date.now()}` }, dev.token)).json().project.id;
  const keys = (await t.post(`/project/${projectId}/api-keys`, {}, dev.token)).json();
  creds.projectKey = { 'x-hostbase-key': keys.secret_key };
  creds.bucketKey = { 'x-api-key': keys.secret_key };
  creds.authKey = { 'x-api-key': keys.publishable_key };
  const signup = await t.post('/auth/v1/signup', { email: 'props-user@example.com', password: 'walk-the-contract' }, undefined, creds.authKey);
  creds.endUserBearer = { authorization: `Bearer ${signup.json().access_token}` };
  creds.endUserToken = { 'x-hostbase-user-token': signup.json().access_token };
  // A table the row operations can find (its name is in the pool of strings tried).
  await t.post(`/project/${projectId}/database/create_table`, { name: 'todos', columns: [{ name: 'title', type: 'text' }, { name: 'data', type: 'jsonb' }], access: 'signed_in' }, dev.token);
});
afterAll(() => t.close());

describe.each(ordered.map((o) => ({ id: o.operationId, o })))('$id', ({ o }) => {
  test('values the contract allows are never refused on grounds it does not state; one past a bound is a 400', async () => {
    const op = spec.paths[o.path][o.method.toLowerCase()];
    const params = ((op.parameters ?? []) as Json[]).map(deref);
    // A value no pooled string matches (a signed token's pattern) falls back to the contract's example.
    const first = (p: Json) => candidates(p.schema)[0] ?? p.example;
    const problems: string[] = [];
    const send = async (url: string, headers: Record<string, string>, payload?: string | Buffer) => {
      const res = await t.app.inject({ method: o.method as 'POST', url, headers: { ...authFor(op), ...headers }, ...(payload === undefined ? {} : { payload }) });
      return res;
    };
    // Path and query values at their edges, the body at its first allowed values.
    const urls = [urlFor(o.path, params, first)];
    for (const p of params) for (const v of candidates(p.schema).slice(1, 3)) urls.push(urlFor(o.path, params, (q) => (q === p ? v : first(q))));
    const jsonSchema = op.requestBody?.content?.['application/json']?.schema;
    const form = op.requestBody?.content?.['multipart/form-data']?.schema;
    const bodies = jsonSchema ? candidates(jsonSchema).slice(0, 12) : [undefined];
    for (const url of urls.slice(0, 4)) {
      for (const body of url === urls[0] ? bodies : bodies.slice(0, 1)) {
        let res: LightMyRequestResponse;
        if (form) {
          const fields = Object.entries(flat(form).properties as Json).filter(([, v]) => flat(v).format !== 'binary');
          const parts = fields
            .map(([k, v]) => ({ field: k, value: k === 'project_id' ? projectId : String(candidates(v)[0] ?? '') }))
            .filter((p) => p.value !== '');
          const zip = makeZip([{ name: 'index.html', data: '<h1>hi</h1>' }]);
          const { body: payload, contentType } = multipart([...parts, { field: 'extra\u0000field', value: 'dropped' }, { field: 'file', name: 'site.zip', type: 'application/zip', content: zip }]);
          res = await send(url, { 'content-type': contentType }, payload);
        } else {
          res = await send(url, body === undefined ? {} : { 'content-type': 'application/json' }, body === undefined ? undefined : JSON.stringify(body));
        }
        const problem = judge(o, op, res, `${url} ${body === undefined ? '' : JSON.stringify(body).slice(0, 200)}`);
        if (problem) problems.push(problem);
      }
    }
    // One past a stated bound of a top-level body string: a 400 with a message (or the body limit's 413).
    if (jsonSchema) {
      const base = (bodies[0] ?? {}) as Json;
      for (const [k, v] of Object.entries((flat(jsonSchema).properties ?? {}) as Json)) {
        const max = flat(v).maxLength;
        if (flat(v).type !== 'string' || max === undefined || max > 200_000) continue;
        const res = await send(urlFor(o.path, params, first), { 'content-type': 'application/json' }, JSON.stringify({ ...base, [k]: 'a'.repeat(max + 1) }));
        if (res.statusCode >= 500 || ![400, 401, 404, 413].includes(res.statusCode) || typeof res.json().message !== 'string')
          problems.push(`over maxLength of ${k}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
