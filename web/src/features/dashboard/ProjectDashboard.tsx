// A project's overview from real calls: files, users, site, its activity and its errors.
import { Link } from 'react-router-dom';
import { useListObjects } from '../../api/generated/storage/storage';
import { useListAuthUsers } from '../../api/generated/end-users/end-users';
import { useListDeployments } from '../../api/generated/hosting/hosting';
import { Icon, type IconName } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { StorageUsage } from '../storage/StorageUsage';
import { formatDate, formatSize } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';
import { useProject } from '../console/ProjectLayout';
import { ProjectActivityPanel, ProjectErrorsPanel } from '../activity/ProjectPanels';

function Stat({ icon, label, value, to, loading, failed }: { icon: IconName; label: string; value: string; to: string; loading: boolean; failed: boolean }) {
  return (
    <li className="card stat-card">
      <span className="feature-icon">
        <Icon name={icon} size={20} />
      </span>
      <span className="stat-label">{label}</span>
      <span className="stat-value">{loading ? '…' : failed ? 'N/A' : value}</span>
      <Link to={to} className="stat-link">
        Open <Icon name="arrowRight" size={14} />
      </Link>
    </li>
  );
}

export default function ProjectDashboard() {
  const { projectId, project } = useProject();
  usePageTitle(`${project.project_name ?? project.domain} · Dashboard`);
  const files = useListObjects(projectId, { page: 1 });
  const users = useListAuthUsers(projectId, { page: 1 });
  const deployments = useListDeployments(projectId);
  const base = `/project/${encodeURIComponent(projectId)}`;
  const live = deployments.data?.deployments.find((d) => d.live);

  return (
    <div className="console-page">
      <PageHeader title={project.project_name ?? project.domain} description={<span className="mono">{project.domain}</span>} />
      <ul className="stat-grid">
        <Stat icon="cloud" label="Files" value={String(files.data?.total ?? 0)} to={`${base}/storage`} loading={files.isPending} failed={files.isError} />
        <Stat
          icon="database"
          label="Storage Used"
          value={formatSize(files.data?.usage_bytes ?? 0)}
          to={`${base}/storage`}
          loading={files.isPending}
          failed={files.isError}
        />
        <Stat icon="user" label="Users" value={String(users.data?.total ?? 0)} to={`${base}/authentication`} loading={users.isPending} failed={users.isError} />
        <Stat
          icon="globe"
          label="Site"
          value={live ? `Live since ${formatDate(live.created_at)}` : 'Not deployed'}
          to={`${base}/hosting`}
          loading={deployments.isPending}
          failed={deployments.isError}
        />
      </ul>
      {files.data ? (
        <section className="card panel">
          <h2 className="panel-title">{files.data.quota_bytes ? 'Storage quota' : 'Storage'}</h2>
          <StorageUsage usage={files.data} label="Used" />
        </section>
      ) : null}
      <ProjectErrorsPanel projectId={projectId} />
      <ProjectActivityPanel projectId={projectId} />
      <section className="card panel">
        <h2 className="panel-title">Project</h2>
        <dl className="settings-list">
          <div>
            <dt>Project ID</dt>
            <dd className="mono">{projectId}</dd>
          </div>
          <div>
            <dt>Domain</dt>
            <dd className="mono">{project.domain}</dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>{formatDate(project.created_at)}</dd>
          </div>
        </dl>
      </section>
    </div>
  );
}
