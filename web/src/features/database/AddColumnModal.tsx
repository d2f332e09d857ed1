// Add Column: the same fields as a column of Create Table. A not-null column without a default can
// only join an empty table: the server says so.
import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useAddDbColumn } from '../../api/generated/database/database';
import type { DbTable } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { FormError } from '../../components/FormError';
import { FormModal } from '../../components/FormModal';
import { useToast } from '../../components/Toast';
import { ColumnFields, columnSpec, emptyColumn, type ColumnDraft } from './ColumnFields';
import { nameProblem, referenceTargets, rowsKey, tablesKey } from './db';

export function AddColumnModal({
  open,
  onClose,
  projectId,
  table,
  tables,
}: {
  open: boolean;
  onClose: () => void;
  projectId: string;
  table: DbTable;
  tables: DbTable[];
}) {
  const [draft, setDraft] = useState<ColumnDraft>(emptyColumn);
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const add = useAddDbColumn(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();

  function close() {
    setDraft(emptyColumn());
    setNameError(null);
    setError(null);
    onClose();
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const bad = nameProblem(draft.name.trim(), 'Column name') ?? (table.columns.some((c) => c.name === draft.name.trim()) ? 'The table already has this column' : null);
    setNameError(bad);
    if (bad) return;
    add.mutate(
      { projectId, data: { table: table.name, column: columnSpec(draft) } },
      {
        onSuccess: async () => {
          toast.success('Column added', `${table.name}.${draft.name.trim()}`);
          close();
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
      open={open}
      onClose={close}
      title={`Add Column to ${table.name}`}
      size="lg"
      formId="add-column"
      formClassName="form"
      onSubmit={onSubmit}
      busy={add.isPending}
      submitLabel="Add Column"
      busyLabel="Adding..."
    >
      <ColumnFields
        legend="New column"
        draft={draft}
        targets={referenceTargets(tables, table.name)}
        error={nameError}
        onChange={(d) => {
          setDraft(d);
          setNameError(null);
        }}
      />
      <FormError message={error} />
    </FormModal>
  );
}
