// "Redeploy" on a project's hosting page: a new archive of this project's site. The type is left
// to the platform by default (it reads it from the files, as the CLI does); picking one overrides it.
import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getListDeploymentsQueryKey, getListSitesQueryKey } from '../../api/generated/hosting/hosting';
import type { DeployType } from '../../api/generated/model';
import { PROJECT_TYPES } from './siteStatus';
import { DEPLOY_MESSAGES, isZip, useZipDeployForm } from './useZipDeploy';
import { ZipDeployModal } from './ZipDeployModal';

export const AUTO_TYPE_LABEL = 'Detect automatically';

export function RedeployModal({ open, onClose, projectId, domain, first }: { open: boolean; onClose: () => void; projectId: string; domain: string; first: boolean }) {
  const [type, setType] = useState<DeployType>('auto');
  const form = useZipDeployForm(onClose, () => setType('auto'));
  const { deploy, busy, file, setError } = form;
  const queryClient = useQueryClient();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!file || !isZip(file)) return setError(DEPLOY_MESSAGES.needZip);
    const res = await deploy({ projectId, domain, type, file });
    await queryClient.invalidateQueries({ queryKey: getListDeploymentsQueryKey(projectId) });
    if (res) {
      await queryClient.invalidateQueries({ queryKey: getListSitesQueryKey() });
      form.finish();
    }
  }

  const choices: { value: DeployType; label: string }[] = [{ value: 'auto', label: AUTO_TYPE_LABEL }, ...PROJECT_TYPES.map((t) => ({ value: t, label: t }))];
  return (
    <ZipDeployModal open={open} title={first ? 'Deploy site' : 'Redeploy'} formId="redeploy-form" form={form} onSubmit={onSubmit}>
      <fieldset className="type-grid">
        <legend>Project type</legend>
        {choices.map((c) => (
          <label key={c.value} className={`type-option${type === c.value ? ' is-checked' : ''}`}>
            <input type="radio" name="type" value={c.value} checked={type === c.value} onChange={() => setType(c.value)} disabled={busy} />
            <span>{c.label}</span>
          </label>
        ))}
      </fieldset>
    </ZipDeployModal>
  );
}
