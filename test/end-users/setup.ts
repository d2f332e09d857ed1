// End-user auth test helpers (projects come from ../helpers/factories): small wrappers for the app-side API (x-api-key) and the console API (developer bearer).
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helpers/app';
import type { Project } from '../helpers/factories';

export { createProject, type Project as TestProject } from '../helpers/factories';

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
export function consoleCall(t: TestApp, p: Pick<Project, 'id'>, op: string, body: unknown, token: string) {
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
