import type { HandlerMap } from '../../platform/http/types';
import { currentAccount, ownedProject } from '../caller';
import { KEY_KIND, projectView, type ProjectsService } from './projects.service';

export function createProjectsHandlers(service: ProjectsService): HandlerMap {
  const handlers: HandlerMap = {
    listProjects: async (req) => {
      const rows = await service.list(currentAccount(req).id);
      return rows.map((p) => projectView(p, service.domainOf(p), service.siteUrlOf(p)));
    },

    checkSubdomain: async (req) => service.checkSubdomain(req.body.subdomain),

    createProject: async (req) => {
      const project = await service.create(currentAccount(req).id, req.body);
      return { message: 'project created', project: projectView(project, service.domainOf(project), service.siteUrlOf(project)) };
    },

    getProjectDetails: async (req) => {
      const p = await ownedProject(req, req.body.project_id);
      return { id: p.id, domain: service.domainOf(p), user_id: p.ownerId, project_name: p.name, subdomain: p.subdomain, site_url: service.siteUrlOf(p), created_at: p.createdAt.toISOString() };
    },

    deleteProject: async (req) => {
      await service.delete(currentAccount(req).id, req.params.projectId, req.body.confirm);
      return { message: 'deleted' };
    },

    getBucketDetails: async (req) => {
      const p = await ownedProject(req);
      return { domain: service.bucketDomain, bucketId: p.bucketId, api_key: await service.key(p, 'bucket') };
    },

    getAuthenticationDetails: async (req) => {
      const p = await ownedProject(req);
      return { api_key: await service.key(p, 'authentication') };
    },

    getProjectApiKeys: async (req) => {
      const p = await ownedProject(req);
      return { publishable_key: await service.key(p, 'authentication'), secret_key: await service.key(p, 'bucket') };
    },

    rotateProjectKey: async (req) => {
      const p = await ownedProject(req);
      const { key } = req.body;
      const kind = key === 'publishable' || key === 'secret' ? KEY_KIND[key] : key;
      return { message: 'key rotated', api_key: await service.rotateKey(p, kind) };
    },
  };
  handlers.createProjectAlias = handlers.createProject as HandlerMap['createProjectAlias'];
  return handlers;
}
