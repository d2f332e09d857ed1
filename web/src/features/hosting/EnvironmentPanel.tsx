// The site's environment: variables and secrets its processes get. A secret is shown masked (the
// API never returns it); it can be replaced or removed. A change restarts the running site.
import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getListSiteEnvQueryKey, useListSiteEnv, useSetSiteEnv, useUnsetSiteEnv } from '../../api/generated/hosting/hosting';
import type { SiteEnvVariable } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { ConfirmDialog, useConfirmTarget } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { FormError } from '../../components/FormError';
import { Empty, QueryView } from '../../components/States';
import { Pill } from '../../components/StatusBadge';
import { useToast } from '../../components/Toast';
import { formatDate } from '../../lib/format';

const MASK = '••••••••';

export function EnvironmentPanel({ projectId }: { projectId: string }) {
  const env = useListSiteEnv(projectId);
  const set = useSetSiteEnv(inlineError);
  const unset = useUnsetSiteEnv(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();
  const toRemove = useConfirmTarget<SiteEnvVariable>();
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [secret, setSecret] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: getListSiteEnvQueryKey(projectId) });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    set.mutate(
      { projectId, data: { variables: [{ name: name.trim(), value, secret }] } },
      {
        onSuccess: async (res) => {
          toast.success(`${name.trim()} saved`, res.message);
          setName('');
          setValue('');
          setSecret(false);
          await refresh();
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };

  const confirmRemove = () =>
    toRemove.confirm((v) =>
      unset.mutate(
        { projectId, data: { names: [v.name] } },
        toRemove.settle(async () => {
          toast.success(`${v.name} removed`);
          await refresh();
        }),
      ),
    );

  return (
    <section className="card panel" aria-labelledby="env-title">
      <h2 id="env-title" className="panel-title">Environment</h2>
      <p className="muted">Variables and secrets your Node, PHP and Flask site reads from its environment. Saving one restarts the running site with it. Secrets are stored encrypted and never shown again.</p>
      <QueryView
        query={env}
        loading="Loading variables..."
        errorTitle="Could not load the environment"
        isEmpty={(d) => d.variables.length === 0}
        empty={<Empty icon="key" title="No variables yet">Add one below, e.g. API_BASE_URL.</Empty>}
      >
        {(data) => (
          <DataTable caption="Environment variables" columns={['Name', 'Value', 'Updated']} actions>
            {data.variables.map((v) => (
              <tr key={v.name}>
                <td data-label="Name" className="mono">{v.name}</td>
                <td data-label="Value" className="mono">
                  {v.secret ? (
                    <>
                      <span aria-label="hidden secret value">{MASK}</span> <Pill tone="gray">secret</Pill>
                    </>
                  ) : (
                    v.value
                  )}
                </td>
                <td data-label="Updated">{formatDate(v.updated_at)}</td>
                <td className="col-actions">
                  <div className="row-actions">
                    <button type="button" className="btn btn-ghost btn-sm" onClick={() => toRemove.open(v)} aria-label={`Remove ${v.name}`}>
                      Remove
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </QueryView>
      <form className="env-form" onSubmit={submit} aria-label="Add a variable">
        <div className="field">
          <label htmlFor="env-name">Name</label>
          <input id="env-name" className="input mono" value={name} onChange={(e) => setName(e.target.value)} placeholder="API_BASE_URL" autoComplete="off" spellCheck={false} required maxLength={128} />
        </div>
        <div className="field">
          <label htmlFor="env-value">Value</label>
          <input id="env-value" className="input mono" type={secret ? 'password' : 'text'} value={value} onChange={(e) => setValue(e.target.value)} autoComplete="off" spellCheck={false} />
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={secret} onChange={(e) => setSecret(e.target.checked)} /> Secret
        </label>
        <button type="submit" className="btn btn-primary" disabled={!name.trim() || set.isPending}>
          {set.isPending ? 'Saving...' : 'Save variable'}
        </button>
      </form>
      <FormError message={error} />
      <ConfirmDialog
        open={!!toRemove.target}
        title="Remove variable"
        confirmLabel="Remove"
        busyLabel="Removing..."
        danger
        busy={unset.isPending}
        error={toRemove.error}
        message={<p>Remove {toRemove.target?.name}? The running site restarts without it.</p>}
        onConfirm={confirmRemove}
        onCancel={toRemove.close}
      />
    </section>
  );
}
