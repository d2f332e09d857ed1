import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getListSitesQueryKey } from '../../api/generated/hosting/hosting';
import { useListProjects } from '../../api/generated/projects/projects';
import type { ProjectType } from '../../api/generated/model';
import { SelectField } from '../../components/Field';
import { everyType } from './siteStatus';
import { DEPLOY_MESSAGES, isZip, useZipDeployForm } from './useZipDeploy';
import { ZipDeployModal } from './ZipDeployModal';

export const FRAMEWORKS: ProjectType[] = everyType(['React', 'Next.js', 'Vue', 'Astro', 'Static', 'PHP', 'Node.js']);

/** "Deploy New Site" on the console's hosting page: choose the project, the framework and the archive. */
export function DeployModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const projects = useListProjects({ query: { enabled: open } });
  const [projectId, setProjectId] = useState('');
  const [framework, setFramework] = useState<ProjectType>('React');
  const form = useZipDeployForm(onClose, () => setProjectId(''));
  const { deploy, busy, file, setError } = form;
  const queryClient = useQueryClient();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!projectId) return setError('Please choose a project.');
    if (!file || !isZip(file)) return setError(DEPLOY_MESSAGES.needZip);
    const project = projects.data?.find((p) => p.project_id === projectId);
    const res = await deploy({ projectId, domain: project?.primary_domain, type: framework, file });
    await queryClient.invalidateQueries({ queryKey: getListSitesQueryKey() });
    if (res) form.finish();
  }

  return (
    <ZipDeployModal
      open={open}
      title="Deploy New Site"
      formId="deploy-form"
      form={form}
      onSubmit={onSubmit}
    >
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
    </ZipDeployModal>
  );
}
