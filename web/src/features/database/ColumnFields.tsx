// The fields of one column being created (Create Table's rows, Add Column): name, type, primary key,
// not null, unique, default and an optional foreign key. A fieldset named by `legend`, so its fields
// keep short labels ("Name", "Type") and stay distinct for assistive technology.
import type { DbColumnSpec, DbColumnType } from '../../api/generated/model';
import { SelectField, TextField } from '../../components/Field';
import { IconButton } from '../../components/IconButton';
import { COLUMN_TYPES } from './db';

/** A column as its fields hold it: `references` is "table.column" or ''. */
export interface ColumnDraft {
  name: string;
  type: DbColumnType;
  primary_key: boolean;
  not_null: boolean;
  unique: boolean;
  default: string;
  references: string;
}

export const emptyColumn = (): ColumnDraft => ({ name: '', type: 'text', primary_key: false, not_null: false, unique: false, default: '', references: '' });

/** The contract's column spec of a draft (defaults and flags left out when unset). */
export function columnSpec(d: ColumnDraft): DbColumnSpec {
  const spec: DbColumnSpec = { name: d.name.trim(), type: d.type };
  if (d.primary_key) spec.primary_key = true;
  if (d.not_null) spec.not_null = true;
  if (d.unique) spec.unique = true;
  if (d.default.trim()) spec.default = d.default.trim();
  if (d.references) {
    const dot = d.references.indexOf('.');
    spec.references = { table: d.references.slice(0, dot), column: d.references.slice(dot + 1) };
  }
  return spec;
}

const DEFAULT_HINT: Partial<Record<DbColumnType, string>> = {
  integer: '0 or auto_increment',
  bigint: '0 or auto_increment',
  timestamptz: 'now()',
  uuid: 'gen_random_uuid()',
  boolean: 'true or false',
  jsonb: '{} or []',
};

export function ColumnFields({
  legend,
  draft,
  onChange,
  targets,
  error,
  onRemove,
}: {
  legend: string;
  draft: ColumnDraft;
  onChange: (d: ColumnDraft) => void;
  /** The columns a foreign key may name. */
  targets: { table: string; column: string; type: string }[];
  error?: string | null;
  onRemove?: () => void;
}) {
  const set = (patch: Partial<ColumnDraft>) => onChange({ ...draft, ...patch });
  const check = (key: 'primary_key' | 'not_null' | 'unique', label: string) => (
    <label className="checkbox">
      <input type="checkbox" checked={draft[key]} onChange={(e) => set({ [key]: e.target.checked })} />
      {label}
    </label>
  );
  return (
    <fieldset className="column-fields">
      <legend>{legend}</legend>
      <div className="column-fields-grid">
        <TextField label="Name" value={draft.name} onChange={(e) => set({ name: e.target.value })} error={error} autoComplete="off" spellCheck={false} />
        <SelectField label="Type" value={draft.type} onChange={(e) => set({ type: e.target.value as DbColumnType })}>
          {COLUMN_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Default"
          value={draft.default}
          placeholder={DEFAULT_HINT[draft.type] ?? 'no default'}
          onChange={(e) => set({ default: e.target.value })}
          autoComplete="off"
          spellCheck={false}
        />
        <SelectField label="Foreign key" value={draft.references} onChange={(e) => set({ references: e.target.value })}>
          <option value="">None</option>
          {targets.map((t) => (
            <option key={`${t.table}.${t.column}`} value={`${t.table}.${t.column}`}>
              {t.table}.{t.column} ({t.type})
            </option>
          ))}
        </SelectField>
      </div>
      <div className="column-flags">
        {check('primary_key', 'Primary key')}
        {check('not_null', 'Not null')}
        {check('unique', 'Unique')}
        {onRemove && <IconButton icon="trash" danger label={`Remove ${legend}`} title="Remove this column" onClick={onRemove} />}
      </div>
    </fieldset>
  );
}
