import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { getListProjectsQueryKey, useCreateProject } from '../../api/generated/projects/projects';
import { FormModal } from '../../components/FormModal';
import { TextArea, TextField } from '../../components/Field';
import { useToast } from '../../components/Toast';
import { normalizeSubdomain } from '../../lib/validation';
import { useSubdomainCheck } from './useSubdomainCheck';

export function NewProjectModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [subdomain, setSubdomain] = useState('');
  const check = useSubdomainCheck(subdomain);
  const create = useCreateProject({
    mutation: { meta: { errorToast: { title: 'Failed to create project', offline: 'Error while creating project' } } },
  });
  const queryClient = useQueryClient();
  const toast = useToast();
  const navigate = useNavigate();

  const canCreate = name.trim().length > 0 && check.state === 'available' && !create.isPending;

  function reset() {
    setName('');
    setDescription('');
    setSubdomain('');
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!canCreate) return;
    create.mutate(
      {
        data: {
          projectName: name.trim(),
          subdomain: subdomain.trim(),
          ...(description.trim() ? { description: description.trim() } : {}),
        },
      },
      {
        onSuccess: async (res) => {
          if (res.message === 'project created' || res.project) {
            toast.success('Project created', res.project?.primary_domain);
            reset();
            onClose();
            await queryClient.invalidateQueries({ queryKey: getListProjectsQueryKey() });
            // A new project opens at once: its dashboard is where the first steps (Connect) start.
            if (res.project?.project_id) navigate(`/project/${encodeURIComponent(res.project.project_id)}/dashboard`);
          } else {
            toast.error('Failed to create project', res.message);
          }
        },
      },
    );
  }

  const tone =
    check.state === 'available' ? 'ok' : check.state === 'taken' || check.state === 'error' ? 'bad' : 'neutral';

  return (
    <FormModal
      open={open}
      onClose={onClose}
      title="New Project"
      formId="new-project-form"
      formClassName="form"
      onSubmit={onSubmit}
      busy={create.isPending}
      submitLabel="Create Project"
      busyLabel="Creating..."
      submitDisabled={!canCreate}
    >
      <TextField label="Project name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} placeholder="My app" />
      <TextArea
        label="Description"
        rows={3}
        maxLength={1000}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        placeholder="What is this project for? (optional)"
      />
      <TextField
        label="Subdomain"
        required
        value={subdomain}
        onChange={(e) => setSubdomain(normalizeSubdomain(e.target.value))}
        placeholder="my-app"
        autoComplete="off"
        spellCheck={false}
        hint="Lower-case letters, digits and hyphens. Your project is served at this subdomain."
        aria-describedby="subdomain-status"
      />
      <p id="subdomain-status" className={`subdomain-status subdomain-${tone}`} role="status" aria-live="polite">
        {check.message ?? ''}
      </p>
    </FormModal>
  );
}
