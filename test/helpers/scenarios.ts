// Table-driven endpoint tests in the manner of pocketbase's ApiScenario: each scenario names a
// request (method, url, headers or token, body) and what its answer must and must not hold.
//
//   scenarios(() => t, [
//     { name: 'another account gets 404', method: 'POST', url: (c) => `/api/project/${c.p.id}/delete`,
//       setup: async (t) => ({ p: await createProject(t) }), token: () => other.token,
//       body: (c) => ({ confirm: c.p.subdomain }), status: 404, notContains: ['hb_'],
//       after: async (t, c) => expect(await projectExists(c.p)).toBe(true) },
//   ]);
//
// Use it for new endpoint tests; a flow that needs several requests in a row stays a plain test.
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app';

type Ctx = Record<string, unknown>;
/** A value, or a function of the context `setup` returned (called when the scenario runs). */
type Of<T, C> = T | ((ctx: C) => T);

export interface Scenario<C extends Ctx = Ctx> {
  name: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  /** The full URL (`/api/...`). */
  url: Of<string, C>;
  /** Sent as `Authorization: Bearer <token>` when given. */
  token?: Of<string | undefined, C>;
  headers?: Of<Record<string, string>, C>;
  /** JSON (an object) or a raw string/Buffer. */
  body?: Of<unknown, C>;
  /** Expected status code. */
  status: number;
  /** Fragments the raw body must contain. */
  contains?: Of<string[], C>;
  /** Fragments the raw body must not contain. */
  notContains?: Of<string[], C>;
  /** The JSON answer must match this (toMatchObject: a subset, asymmetric matchers allowed). */
  json?: Of<unknown, C>;
  /** Runs before `before`, returns the context later fields and hooks receive. */
  setup?: (t: TestApp) => Promise<C> | C;
  before?: (t: TestApp, ctx: C) => Promise<void> | void;
  /** Runs after the checks, with the response (more assertions, or clean-up). */
  after?: (t: TestApp, ctx: C, res: LightMyRequestResponse) => Promise<void> | void;
  /** Skip it (with the reason in the name), or run only it while debugging. */
  skip?: boolean;
  only?: boolean;
}

const of = <T, C>(v: Of<T, C> | undefined, ctx: C): T | undefined => (typeof v === 'function' ? (v as (c: C) => T)(ctx) : v);

/** Runs one scenario against the app and returns its response. */
export async function runScenario<C extends Ctx>(t: TestApp, s: Scenario<C>): Promise<LightMyRequestResponse> {
  const ctx = ((await s.setup?.(t)) ?? {}) as C;
  await s.before?.(t, ctx);
  const token = of(s.token, ctx);
  const body = of(s.body, ctx);
  const res = await t.app.inject({
    method: s.method ?? 'POST',
    url: of(s.url, ctx)!,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...of(s.headers, ctx) },
    ...(body === undefined ? {} : { payload: typeof body === 'string' || Buffer.isBuffer(body) ? body : (body as object) }),
  });
  // Status and body together, so a failure shows what came back.
  expect({ status: res.statusCode, body: res.body }).toEqual({ status: s.status, body: expect.anything() });
  for (const fragment of of(s.contains, ctx) ?? []) expect(res.body).toContain(fragment);
  for (const fragment of of(s.notContains, ctx) ?? []) expect(res.body).not.toContain(fragment);
  const json = of(s.json, ctx);
  if (json !== undefined) expect(res.json()).toMatchObject(json as object);
  await s.after?.(t, ctx, res);
  return res;
}

/** Declares one jest test per scenario. `app` is called when each test runs (after beforeAll). */
export function scenarios<C extends Ctx = Ctx>(app: () => TestApp, list: Scenario<C>[]): void {
  for (const s of list) {
    const declare = s.skip ? test.skip : s.only ? test.only : test;
    declare(s.name, async () => {
      await runScenario(app(), s);
    });
  }
}
