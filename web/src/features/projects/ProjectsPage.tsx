import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { getListProjectsQueryKey, useDeleteProject, useListProjects } from '../../api/generated/projects/projects';
import type { Project } from '../../api/generated/model';
import { inlineError } from '../../api/queryClient';
import { downloadFile, errorMessage } from '../../api/http';
import { ConfirmDialog, useConfirmTarget } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { IconButton } from '../../components/IconButton';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryView } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatDate } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';
import { NewProjectModal } from './NewProjectModal';

export default function ProjectsPage() {
  usePageTitle('Projects');
  const projects = useListProjects();
  const [creating, setCreating] = useState(false);
  const toDelete = useConfirmTarget<Project>();
  const del = useDeleteProject(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();
  const [exporting, setExporting] = useState<string | null>(null);

  const exportProject = (project: Project) => {
    setExporting(project.project_id);
    downloadFile(`/project/${encodeURIComponent(project.project_id)}/export`, `${project.subdomain}.tar.gz`)
      .then(
        (name) => toast.success('Project exported', `${name}: it holds the project's keys and users' password hashes, keep it private`),
        (err: unknown) => toast.error('Export failed', errorMessage(err)),
      )
      .finally(() => setExporting(null));
  };

  const confirmDelete = () =>
    toDelete.confirm((project) =>
      del.mutate(
        { projectId: project.project_id, data: { confirm: project.subdomain } },
        toDelete.settle(async () => {
          toast.success('Project deleted', project.primary_domain);
          await queryClient.invalidateQueries({ queryKey: getListProjectsQueryKey() });
        }),
      ),
    );

  return (
    <div className="console-page">
      <PageHeader
        title="Projects"
        description="Each project has its own database, storage bucket, authentication service, site and mail domain."
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
            <Icon name="plus" size={16} /> New Project
          </button>
        }
      />

      <QueryView
        query={projects}
        loading="Loading projects..."
        errorTitle="Could not load projects"
        isEmpty={(list) => list.length === 0}
        empty={
          <Empty
            icon="folder"
            title="No projects yet"
            action={
              <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
                <Icon name="plus" size={16} /> Create your first project
              </button>
            }
          >
            Create a project to get a database, storage, authentication and hosting.
          </Empty>
        }
      >
        {(list) => (
          <ul className="project-grid" aria-label="Projects">
            {list.map((p) => (
              <li key={p.project_id} className="card project-card">
                <Link to={`/project/${encodeURIComponent(p.project_id)}/dashboard`} className="project-link">
                  <span className="project-icon" aria-hidden="true">
                    {(p.project_name || p.subdomain || '?')[0]?.toUpperCase()}
                  </span>
                  <span className="project-text">
                    <span className="project-name">{p.project_name}</span>
                    <span className="project-domain mono">{p.primary_domain}</span>
                  </span>
                </Link>
                {p.description && <p className="project-desc">{p.description}</p>}
                <div className="project-foot">
                  <span className="muted">Created {formatDate(p.created_at)}</span>
                  <span className="project-actions">
                    <IconButton
                      icon="download"
                      label={`Export project ${p.project_name}`}
                      title="Export project"
                      disabled={exporting === p.project_id}
                      onClick={() => exportProject(p)}
                    />
                    <IconButton icon="trash" danger label={`Delete project ${p.project_name}`} onClick={() => toDelete.open(p)} />
                  </span>
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryView>

      <NewProjectModal open={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        open={!!toDelete.target}
        title="Delete project"
        danger
        confirmLabel="Delete project"
        busyLabel="Deleting..."
        busy={del.isPending}
        error={toDelete.error}
        requireText={toDelete.target?.subdomain}
        message={
          <p>
            This permanently deletes <strong>{toDelete.target?.project_name}</strong> ({toDelete.target?.primary_domain}) and everything in
            it: files, end users, sites and the mail domain. This cannot be undone.
          </p>
        }
        onConfirm={confirmDelete}
        onCancel={toDelete.close}
      />
    </div>
  );
}
