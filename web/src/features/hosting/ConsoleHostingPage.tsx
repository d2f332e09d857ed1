import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useListSites } from '../../api/generated/hosting/hosting';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryView } from '../../components/States';
import { Pill } from '../../components/StatusBadge';
import { formatDate } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';
import { DeployModal } from './DeployModal';

const siteTone = { live: 'green', building: 'yellow', failed: 'red', unpublished: 'gray', none: 'gray' } as const;

export default function ConsoleHostingPage() {
  usePageTitle('Hosting');
  const sites = useListSites({ query: { refetchInterval: (q) => (q.state.data?.some((s) => s.status === 'building') ? 3000 : false) } });
  const [deploying, setDeploying] = useState(false);

  return (
    <div className="console-page">
      <PageHeader
        title="Hosting"
        description="Your sites across all projects."
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setDeploying(true)}>
            <Icon name="rocket" size={16} /> Deploy New Site
          </button>
        }
      />
      <QueryView
        query={sites}
        loading="Loading sites..."
        errorTitle="Could not load sites"
        isEmpty={(list) => list.length === 0}
        empty={
          <Empty icon="globe" title="No sites yet" action={<button type="button" className="btn btn-primary" onClick={() => setDeploying(true)}>Deploy New Site</button>}>
            Create a project first, then deploy a zip of your site, built or as source code to build.
          </Empty>
        }
      >
        {(list) => (
          <ul className="site-list">
            {list.map((s) => (
              <li key={s.project_id} className="card site-item">
                <div className="site-main-info">
                  <span className="project-name">{s.project_name}</span>
                  <a className="project-domain mono" href={s.site_url ?? `http://${s.domain}`} target="_blank" rel="noreferrer">
                    {s.domain}
                  </a>
                </div>
                <div className="site-meta">
                  <Pill tone={siteTone[s.status] ?? 'gray'}>{s.status === 'none' ? 'not deployed' : s.status}</Pill>
                  {s.type && <span className="muted">{s.type}</span>}
                  <span className="muted">Updated {formatDate(s.updated_at)}</span>
                  <Link to={`/project/${encodeURIComponent(s.project_id)}/hosting`} className="btn btn-secondary btn-sm">
                    Manage
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      <DeployModal open={deploying} onClose={() => setDeploying(false)} />
    </div>
  );
}
