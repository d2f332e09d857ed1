import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getListDeploymentsQueryKey, getListSitesQueryKey } from '../../api/generated/hosting/hosting';
import type { ProjectType } from '../../api/generated/model';
import { PROJECT_TYPES } from './siteStatus';
import { DEPLOY_MESSAGES, isZip, useZipDeployForm } from './useZipDeploy';
import { ZipDeployModal } from './ZipDeployModal';

/** Deploys a new archive of this project's site ("Manage" on the project's hosting page). */
export function ManageModal({ open, onClose, projectId, domain }: { open: boolean; onClose: () => void; projectId: string; domain: string }) {
  const [type, setType] = useState<ProjectType | ''>('');
  const form = useZipDeployForm(onClose, () => setType(''));
  const { deploy, busy, file, setError } = form;
  const queryClient = useQueryClient();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!type) return setError(DEPLOY_MESSAGES.needType);
    if (!file || !isZip(file)) return setError(DEPLOY_MESSAGES.needZip);
    const res = await deploy({ projectId, domain, type, file });
    await queryClient.invalidateQueries({ queryKey: getListDeploymentsQueryKey(projectId) });
    if (res) {
      await queryClient.invalidateQueries({ queryKey: getListSitesQueryKey() });
      form.finish();
    }
  }

  return (
    <ZipDeployModal
      open={open}
      title="Add New Project"
      formId="manage-form"
      form={form}
      onSubmit={onSubmit}
    >
      <fieldset className="type-grid">
        <legend>Project type</legend>
        {PROJECT_TYPES.map((t) => (
          <label key={t} className={`type-option${type === t ? ' is-checked' : ''}`}>
            <input type="radio" name="type" value={t} checked={type === t} onChange={() => setType(t)} disabled={busy} />
            <span>{t}</span>
          </label>
        ))}
      </fieldset>
    </ZipDeployModal>
  );
}
