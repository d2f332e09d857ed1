// /console/{database,api-keys,storage,authentication,hosting,email} without a project: choose one.
import { Link } from 'react-router-dom';
import { useListProjects } from '../../api/generated/projects/projects';
import { PageHeader } from '../../components/PageHeader';
import { Empty, ErrorState, Loading } from '../../components/States';
import { Icon } from '../../components/Icon';
import { usePageTitle } from '../../lib/usePageTitle';

export function ProjectPicker({ section, title, description }: { section: string; title: string; description: string }) {
  usePageTitle(title);
  const projects = useListProjects();
  return (
    <div className="console-page">
      <PageHeader title={title} description={description} />
      <h2 className="section-label">Choose a project</h2>
      {projects.isPending ? (
        <Loading label="Loading projects..." />
      ) : projects.isError ? (
        <ErrorState title="Could not load projects" error={projects.error} onRetry={() => projects.refetch()} />
      ) : projects.data.length === 0 ? (
        <Empty title="No projects yet" action={<Link to="/console" className="btn btn-primary">Create a project</Link>}>
          {title} belongs to a project. Create one first.
        </Empty>
      ) : (
        <ul className="picker-list">
          {projects.data.map((p) => (
            <li key={p.project_id}>
              <Link to={`/project/${encodeURIComponent(p.project_id)}/${section}`} className="card picker-item">
                <span>
                  <span className="project-name">{p.project_name}</span>
                  <span className="project-domain mono">{p.primary_domain}</span>
                </span>
                <Icon name="chevronRight" />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export const DatabasePicker = () => (
  <ProjectPicker section="database" title="Database" description="Tables, rows, access rules and SQL of a project's database." />
);
export const ApiKeysPicker = () => (
  <ProjectPicker section="api-keys" title="API Keys" description="Project ids, domains and API keys of your projects." />
);
export const StoragePicker = () => (
  <ProjectPicker section="storage" title="Storage" description="Upload, preview, share and delete the files of a project." />
);
export const AuthenticationPicker = () => (
  <ProjectPicker section="authentication" title="Authentication" description="Manage the end users of a project's authentication service." />
);
export const EmailPicker = () => (
  <ProjectPicker section="email" title="Email" description="Configure a sending domain and mailboxes for a project." />
);
