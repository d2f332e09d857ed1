// Shared set-up for hosting tests: a developer with a project, deploys and site requests.
import type { LightMyRequestResponse } from 'fastify';
import { registerDeveloper, type Developer, type TestApp } from '../helpers/app';
import { multipart } from './zips';

export interface SiteProject {
  dev: Developer;
  id: string;
  subdomain: string;
  host: string;
}

let n = 0;
export async function createSiteProject(t: TestApp, dev?: Developer): Promise<SiteProject> {
  const owner = dev ?? (await registerDeveloper(t));
  const subdomain = `site${Date.now().toString(36)}${++n}`;
  const res = await t.post('/create-project', { projectName: 'Site', subdomain }, owner.token);
  if (res.statusCode !== 200) throw new Error(`create-project: ${res.statusCode} ${res.body}`);
  return { dev: owner, id: res.json().project.id, subdomain, host: `${subdomain}.${t.config.platformDomain}:3000` };
}

export function deploy(t: TestApp, p: SiteProject, zip: Buffer | undefined, type: string | undefined, token = p.dev.token): Promise<LightMyRequestResponse> {
  const fields: Record<string, string> = { domain: p.host, projectId: p.id };
  if (type !== undefined) fields.type = type;
  const body = multipart(fields, zip ? { data: zip } : undefined);
  return t.app.inject({
    method: 'POST',
    url: `/api/project/${p.id}/upload-and-extract-zip/`,
    headers: { authorization: `Bearer ${token}`, ...body.headers },
    payload: body.payload,
  });
}

export function site(t: TestApp, p: SiteProject, url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' | 'POST' = 'GET', payload?: string) {
  return t.app.inject({ method, url, headers: { host: p.host, ...headers }, ...(payload === undefined ? {} : { payload }) });
}
