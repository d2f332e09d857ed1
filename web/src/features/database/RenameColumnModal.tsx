// Rename a column: one new name, checked with the server's rule first.
import { useEffect, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useRenameDbColumn } from '../../api/generated/database/database';
import type { DbColumn, DbTable } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { TextField } from '../../components/Field';
import { FormError } from '../../components/FormError';
import { FormModal } from '../../components/FormModal';
import { useToast } from '../../components/Toast';
import { nameProblem, rowsKey, tablesKey } from './db';

export function RenameColumnModal({ column, onClose, projectId, table }: { column: DbColumn | null; onClose: () => void; projectId: string; table: DbTable }) {
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const rename = useRenameDbColumn(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();

  useEffect(() => {
    setName(column?.name ?? '');
    setNameError(null);
    setError(null);
  }, [column]);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!column) return;
    setError(null);
    const newName = name.trim();
    const bad = nameProblem(newName, 'New name') ?? (newName === column.name ? 'Enter a different name' : null);
    setNameError(bad);
    if (bad) return;
    rename.mutate(
      { projectId, data: { table: table.name, column: column.name, new_name: newName } },
      {
        onSuccess: async () => {
          toast.success('Column renamed', `${column.name} → ${newName}`);
          onClose();
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: tablesKey(projectId) }),
            queryClient.invalidateQueries({ queryKey: rowsKey(projectId, table.name) }),
          ]);
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  }

  return (
    <FormModal
      open={!!column}
      onClose={onClose}
      title={`Rename ${column?.name ?? ''}`}
      size="sm"
      formId="rename-column"
      formClassName="form"
      onSubmit={onSubmit}
      busy={rename.isPending}
      submitLabel="Rename"
      busyLabel="Renaming..."
    >
      <TextField
        label="New name"
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          setNameError(null);
        }}
        error={nameError}
        autoComplete="off"
        spellCheck={false}
      />
      <FormError message={error} />
    </FormModal>
  );
}
