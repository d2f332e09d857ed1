import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { getListProjectsQueryKey, useDeleteProject, useListProjects } from '../../api/generated/projects/projects';
import type { Project } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { Empty, ErrorState, Loading } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatDate } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';
import { NewProjectModal } from './NewProjectModal';

export default function ProjectsPage() {
  usePageTitle('Projects');
  const projects = useListProjects();
  const [creating, setCreating] = useState(false);
  const [toDelete, setToDelete] = useState<Project | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const del = useDeleteProject(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();

  function confirmDelete() {
    if (!toDelete) return;
    setDeleteError(null);
    del.mutate(
      { projectId: toDelete.project_id, data: { confirm: toDelete.subdomain } },
      {
        onSuccess: async () => {
          toast.success('Project deleted', toDelete.primary_domain);
          setToDelete(null);
          await queryClient.invalidateQueries({ queryKey: getListProjectsQueryKey() });
        },
        onError: (err) => setDeleteError(errorMessage(err)),
      },
    );
  }

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

      {projects.isPending ? (
        <Loading label="Loading projects..." />
      ) : projects.isError ? (
        <ErrorState title="Could not load projects" error={projects.error} onRetry={() => projects.refetch()} />
      ) : projects.data.length === 0 ? (
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
      ) : (
        <ul className="project-grid" aria-label="Projects">
          {projects.data.map((p) => (
            <li key={p.project_id} className="card project-card">
              <Link to={`/project/${encodeURIComponent(p.project_id)}/authentication`} className="project-link">
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
                <button
                  type="button"
                  className="icon-btn icon-btn-danger"
                  aria-label={`Delete project ${p.project_name}`}
                  onClick={() => {
                    setDeleteError(null);
                    setToDelete(p);
                  }}
                >
                  <Icon name="trash" size={16} />
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}

      <NewProjectModal open={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        open={!!toDelete}
        title="Delete project"
        danger
        confirmLabel="Delete project"
        busyLabel="Deleting..."
        busy={del.isPending}
        error={deleteError}
        requireText={toDelete?.subdomain}
        message={
          <p>
            This permanently deletes <strong>{toDelete?.project_name}</strong> ({toDelete?.primary_domain}) and everything in
            it: files, end users, sites and the mail domain. This cannot be undone.
          </p>
        }
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </div>
  );
}
