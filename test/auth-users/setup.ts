// Shared set-up for the end-user auth tests: a developer with a project and its auth key, and
// small wrappers for the app-side API (x-api-key) and the console API (developer bearer).
import type { LightMyRequestResponse } from 'fastify';
import { registerDeveloper, type Developer, type TestApp } from '../helpers/app';

let seq = 0;

export interface TestProject {
  dev: Developer;
  id: string;
  subdomain: string;
  authKey: string;
}

export async function createProject(t: TestApp, dev?: Developer): Promise<TestProject> {
  dev ??= await registerDeveloper(t);
  seq += 1;
  const subdomain = `eu${seq}x${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
  const res = await t.post('/create-project', { projectName: `P ${seq}`, subdomain }, dev.token);
  if (res.statusCode !== 200) throw new Error(`create-project failed: ${res.statusCode} ${res.body}`);
  const id = res.json().project.id as string;
  const key = await t.post(`/project/${id}/authentication-details`, {}, dev.token);
  return { dev, id, subdomain, authKey: key.json().api_key };
}

/** An app-side call: /api/auth/v1{path} with the project's auth key and an optional end-user token. */
export function app(
  t: TestApp,
  key: string | undefined,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  accessToken?: string,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url: '/api/auth/v1' + path,
    headers: {
      ...(key ? { 'x-api-key': key } : {}),
      ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
      ...headers,
    },
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

/** A console call: /api/project/{id}/auth/{op} with the developer's token. */
export function consoleCall(t: TestApp, p: Pick<TestProject, 'id'>, op: string, body: unknown, token: string) {
  return t.post(`/project/${p.id}/auth/${op}`, body, token);
}

/** The token of the newest reset (or verify) link mailed to this address. */
export function tokenFromOutbox(t: TestApp, to: string, kind: 'reset-password' | 'verify-email' = 'reset-password'): { link: string; token: string } {
  const mails = t.outbox().filter((m) => m.to.toLowerCase().includes(to.toLowerCase()));
  const link = mails
    .flatMap((m) => m.links)
    .reverse()
    .find((l) => l.includes(`/${kind}?token=`));
  if (!link) throw new Error(`no ${kind} link mailed to ${to}; outbox: ${JSON.stringify(t.outbox().map((m) => [m.to, m.subject]))}`);
  return { link, token: new URL(link).searchParams.get('token')! };
}
