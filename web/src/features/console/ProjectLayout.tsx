// /project/:projectId/*: loads the project once and hands it to the screens below.
import { Suspense } from 'react';
import { Link, Outlet, useOutletContext, useParams } from 'react-router-dom';
import { useGetProjectDetails } from '../../api/generated/projects/projects';
import type { ProjectDetails } from '../../api/generated/model';
import { ErrorState, PageLoader } from '../../components/States';
import { Icon } from '../../components/Icon';

export interface ProjectContext {
  projectId: string;
  project: ProjectDetails;
}

export function useProject(): ProjectContext {
  return useOutletContext<ProjectContext>();
}

export default function ProjectLayout() {
  const { projectId = '' } = useParams();
  const details = useGetProjectDetails({ project_id: projectId }, { query: { enabled: !!projectId, staleTime: 60_000 } });

  if (details.isPending) return <PageLoader />;
  if (details.isError) {
    return (
      <div className="console-page">
        <ErrorState title="Could not open this project" error={details.error} onRetry={() => details.refetch()} />
        <p className="center">
          <Link to="/console">Back to projects</Link>
        </p>
      </div>
    );
  }
  const project = details.data;
  return (
    <div className="project-shell">
      <div className="project-bar">
        <Link to="/console" className="project-back">
          <Icon name="arrowLeft" size={16} /> Projects
        </Link>
        <span className="project-bar-name">{project.project_name ?? project.subdomain ?? project.domain}</span>
        <a className="project-bar-domain mono" href={project.site_url ?? `http://${project.domain}`} target="_blank" rel="noreferrer">
          {project.domain}
        </a>
        <Link to={`/project/${encodeURIComponent(projectId)}/connect`} className="btn btn-primary btn-sm project-bar-connect">
          <Icon name="code" size={16} /> Connect
        </Link>
      </div>
      <Suspense fallback={<PageLoader />}>
        <Outlet context={{ projectId, project } satisfies ProjectContext} />
      </Suspense>
    </div>
  );
}
