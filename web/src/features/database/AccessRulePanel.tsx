// The table's app access rule: four choices, each explained in one line. The rule lives in the
// database (row-level security policies and grants), so it is saved with one call, not per keystroke.
import { useEffect, useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSetDbTableAccess } from '../../api/generated/database/database';
import type { DbAccess, DbTable } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { FormError } from '../../components/FormError';
import { useToast } from '../../components/Toast';
import { ACCESS_RULES, accessLabel, tablesKey } from './db';

export function AccessRulePanel({ projectId, table }: { projectId: string; table: DbTable }) {
  const [choice, setChoice] = useState<DbAccess>(table.access);
  const [error, setError] = useState<string | null>(null);
  const save = useSetDbTableAccess(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();
  const id = useId();
  useEffect(() => setChoice(table.access), [table.access]);

  function onSave() {
    setError(null);
    save.mutate(
      { projectId, data: { table: table.name, access: choice } },
      {
        onSuccess: async (t) => {
          toast.success('Access rule saved', `${t.name}: ${accessLabel(t.access)}`);
          await queryClient.invalidateQueries({ queryKey: tablesKey(projectId) });
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  }

  return (
    <section className="card panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="panel-title">
        App access
      </h2>
      <p className="muted settings-text">
        What apps may do with this table through the data API (/api/db/v1) with the project's publishable key. Enforced in the
        database; this console always has full access.
      </p>
      <fieldset className="radio-cards access-rules">
        <legend className="visually-hidden">Access rule</legend>
        {ACCESS_RULES.map((r) => (
          <label key={r.value} className={`radio-card${choice === r.value ? ' is-checked' : ''}`}>
            <input
              type="radio"
              name={`${id}-access`}
              value={r.value}
              checked={choice === r.value}
              onChange={() => setChoice(r.value)}
              aria-labelledby={`${id}-${r.value}`}
              aria-describedby={`${id}-${r.value}-explain`}
            />
            <span>
              <strong id={`${id}-${r.value}`}>{r.label}</strong>
              <span id={`${id}-${r.value}-explain`} className="muted">
                {r.explain}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <FormError message={error} />
      <div className="panel-actions">
        <button type="button" className="btn btn-primary" onClick={onSave} disabled={choice === table.access || save.isPending}>
          {save.isPending ? 'Saving...' : 'Save access rule'}
        </button>
      </div>
    </section>
  );
}
