import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { getListSitesQueryKey, useListSites } from '../../api/generated/hosting/hosting';
import { useListProjects } from '../../api/generated/projects/projects';
import type { ProjectType } from '../../api/generated/model';
import { SelectField } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { PageHeader } from '../../components/PageHeader';
import { ProgressBar } from '../../components/ProgressBar';
import { Empty, ErrorState, Loading } from '../../components/States';
import { Pill } from '../../components/StatusBadge';
import { formatDate } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';
import { DEPLOY_MESSAGES, isZip, useZipDeploy } from './useZipDeploy';
import { ZipPicker } from './ZipPicker';

export const FRAMEWORKS: ProjectType[] = ['React', 'Next.js', 'Vue', 'Astro', 'Static', 'PHP', 'Node.js'];
const siteTone = { live: 'green', building: 'yellow', failed: 'red', none: 'gray' } as const;

function DeployModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const projects = useListProjects({ query: { enabled: open } });
  const [projectId, setProjectId] = useState('');
  const [framework, setFramework] = useState<ProjectType>('React');
  const [file, setFile] = useState<File | null>(null);
  const { deploy, progress, busy, error, setError } = useZipDeploy();
  const queryClient = useQueryClient();

  function close() {
    if (busy) return;
    setProjectId('');
    setFile(null);
    setError(null);
    onClose();
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!projectId) return setError('Please choose a project.');
    if (!file || !isZip(file)) return setError(DEPLOY_MESSAGES.needZip);
    const project = projects.data?.find((p) => p.project_id === projectId);
    const res = await deploy({ projectId, domain: project?.primary_domain, type: framework, file });
    await queryClient.invalidateQueries({ queryKey: getListSitesQueryKey() });
    if (res) {
      setFile(null);
      setProjectId('');
      onClose();
    }
  }

  return (
    <Modal
      open={open}
      onClose={close}
      busy={busy}
      title="Deploy New Site"
      size="lg"
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={close} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form="deploy-form" className="btn btn-primary" disabled={busy}>
            {busy ? 'Deploying...' : 'Deploy'}
          </button>
        </>
      }
    >
      <form id="deploy-form" className="form" onSubmit={onSubmit}>
        <SelectField
          label="Site name (project)"
          value={projectId}
          onChange={(e) => setProjectId(e.target.value)}
          disabled={busy || projects.isPending}
          hint={projects.isError ? 'Could not load your projects.' : 'The site is served at the project’s domain.'}
        >
          <option value="">{projects.isPending ? 'Loading projects...' : 'Choose a project'}</option>
          {projects.data?.map((p) => (
            <option key={p.project_id} value={p.project_id}>
              {p.project_name} ({p.primary_domain})
            </option>
          ))}
        </SelectField>
        <SelectField label="Framework" value={framework} onChange={(e) => setFramework(e.target.value as ProjectType)} disabled={busy}>
          {FRAMEWORKS.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </SelectField>
        <ZipPicker
          file={file}
          onFile={(f) => {
            setError(null);
            if (f && !isZip(f)) setError(DEPLOY_MESSAGES.needZip);
            else setFile(f);
          }}
          disabled={busy}
        />
        {progress !== null && <ProgressBar value={progress} label="Uploading the archive" />}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </Modal>
  );
}

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
      {sites.isPending ? (
        <Loading label="Loading sites..." />
      ) : sites.isError ? (
        <ErrorState title="Could not load sites" error={sites.error} onRetry={() => sites.refetch()} />
      ) : sites.data.length === 0 ? (
        <Empty icon="globe" title="No sites yet" action={<button type="button" className="btn btn-primary" onClick={() => setDeploying(true)}>Deploy New Site</button>}>
          Create a project first, then deploy a zip of your built site.
        </Empty>
      ) : (
        <ul className="site-list">
          {sites.data.map((s) => (
            <li key={s.project_id} className="card site-item">
              <div className="site-main-info">
                <span className="project-name">{s.project_name}</span>
                <a className="project-domain mono" href={`https://${s.domain}`} target="_blank" rel="noreferrer">
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
      <DeployModal open={deploying} onClose={() => setDeploying(false)} />
    </div>
  );
}
