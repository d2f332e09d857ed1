// A project's hosting page: the site's status, Redeploy, server status, traffic, domains, deployments and settings.
import { useState } from 'react';
import { useListDeployments } from '../../api/generated/hosting/hosting';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { StatusBadge } from '../../components/StatusBadge';
import { usePageTitle } from '../../lib/usePageTitle';
import { useProject } from '../console/ProjectLayout';
import { BuildSettingsPanel } from './BuildSettingsPanel';
import { DeploymentsPanel } from './DeploymentsPanel';
import { Domains } from './Domains';
import { EnvironmentPanel } from './EnvironmentPanel';
import { RedeployModal } from './RedeployModal';
import { ServerStatus } from './ServerStatus';
import { SiteLifecyclePanel } from './SiteLifecyclePanel';
import { badgeStatus } from './siteStatus';
import { Traffic } from './Traffic';

export default function ProjectHostingPage() {
  usePageTitle('Hosting');
  const { projectId, project } = useProject();
  // While a build runs (its log closed or never opened) the list is polled until it ends.
  const deployments = useListDeployments(projectId, { query: { refetchInterval: (q) => (q.state.data?.deployments.some((d) => d.status === 'building') ? 3000 : false) } });
  const [managing, setManaging] = useState(false);

  const live = deployments.data?.deployments.find((d) => d.live);
  // Before any deployment there is nothing to redeploy: the same form deploys the first one.
  const first = deployments.data?.deployments.length === 0;
  const siteStatus = deployments.data ? (live ? live.status : deployments.data.deployments[0]?.status === 'building' ? 'building' : deployments.data.deployments.some((d) => d.status !== 'failed') ? 'unpublished' : 'none') : undefined;

  return (
    <div className="console-page">
      <PageHeader
        title={project.domain}
        description={
          <span className="inline-flex">
            Status: <StatusBadge status={badgeStatus(siteStatus)} />
            <a href={project.site_url ?? `http://${project.domain}`} target="_blank" rel="noreferrer" className="inline-flex">
              Visit site <Icon name="external" size={14} />
            </a>
          </span>
        }
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setManaging(true)}>
            <Icon name="upload" size={16} /> {first ? 'Deploy site' : 'Redeploy'}
          </button>
        }
      />

      <section className="card panel" aria-labelledby="server-title">
        <h2 id="server-title" className="panel-title">Server Status</h2>
        <ServerStatus projectId={projectId} domain={project.domain} enabled={!!live} />
      </section>

      <Traffic projectId={projectId} />

      <Domains projectId={projectId} />

      <DeploymentsPanel projectId={projectId} domain={project.domain} siteUrl={project.site_url ?? undefined} deployments={deployments} onDeploy={() => setManaging(true)} />

      <EnvironmentPanel projectId={projectId} />

      <BuildSettingsPanel projectId={projectId} />

      <SiteLifecyclePanel
        projectId={projectId}
        subdomain={project.subdomain ?? project.domain.split('.')[0]}
        domain={project.domain}
        published={!!live}
        hasDeployments={(deployments.data?.deployments.length ?? 0) > 0}
      />

      <RedeployModal open={managing} onClose={() => setManaging(false)} projectId={projectId} domain={project.domain} first={first} />
    </div>
  );
}
