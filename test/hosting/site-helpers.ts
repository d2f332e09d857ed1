// Hosting test helpers: site requests. Projects and deploys come from ../helpers/factories.
import type { TestApp } from '../helpers/app';
import { createProject, type Project } from '../helpers/factories';

export { deploy } from '../helpers/factories';
export type SiteProject = Project;
/** A project whose site the tests deploy and request (factories' createProject). */
export const createSiteProject = createProject;

export function site(t: TestApp, p: Pick<Project, 'host'>, url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' | 'POST' = 'GET', payload?: string) {
  return t.app.inject({ method, url, headers: { host: p.host, ...headers }, ...(payload === undefined ? {} : { payload }) });
}
