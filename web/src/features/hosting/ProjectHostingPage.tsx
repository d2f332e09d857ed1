import { useState } from 'react';
import { useListDeployments } from '../../api/generated/hosting/hosting';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { StatusBadge } from '../../components/StatusBadge';
import { usePageTitle } from '../../lib/usePageTitle';
import { useProject } from '../console/ProjectLayout';
import { DeploymentsPanel } from './DeploymentsPanel';
import { Domains } from './Domains';
import { ManageModal } from './ManageModal';
import { ServerStatus } from './ServerStatus';
import { badgeStatus } from './siteStatus';
import { Traffic } from './Traffic';

export default function ProjectHostingPage() {
  usePageTitle('Hosting');
  const { projectId, project } = useProject();
  const deployments = useListDeployments(projectId);
  const [managing, setManaging] = useState(false);

  const live = deployments.data?.deployments.find((d) => d.live);
  const siteStatus = deployments.data ? (live ? live.status : deployments.data.deployments[0]?.status === 'building' ? 'building' : 'none') : undefined;

  return (
    <div className="console-page">
      <PageHeader
        title={project.domain}
        description={
          <span className="inline-flex">
            Status: <StatusBadge status={badgeStatus(siteStatus)} />
            <a href={`https://${project.domain}`} target="_blank" rel="noreferrer" className="inline-flex">
              Visit site <Icon name="external" size={14} />
            </a>
          </span>
        }
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setManaging(true)}>
            <Icon name="upload" size={16} /> Manage
          </button>
        }
      />

      <section className="card panel" aria-labelledby="server-title">
        <h2 id="server-title" className="panel-title">Server Status</h2>
        <ServerStatus projectId={projectId} domain={project.domain} enabled={!!live} />
      </section>

      <Traffic projectId={projectId} />

      <Domains projectId={projectId} />

      <DeploymentsPanel projectId={projectId} domain={project.domain} deployments={deployments} onDeploy={() => setManaging(true)} />

      <ManageModal open={managing} onClose={() => setManaging(false)} projectId={projectId} domain={project.domain} />
    </div>
  );
}
