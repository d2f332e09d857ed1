// One column's input in the row form, by its type: true/false for boolean, a textarea of JSON for
// jsonb, a text input for the rest (checked by parseInput on submit). A nullable column also gets a
// NULL checkbox that disables the input.
import type { DbColumn } from '../../api/generated/model';
import { SelectField, TextArea, TextField } from '../../components/Field';
import { columnHint } from './db';

export interface FieldValue {
  text: string;
  isNull: boolean;
}

const INPUT_MODE: Record<string, 'numeric' | 'decimal' | undefined> = { integer: 'numeric', bigint: 'numeric', numeric: 'decimal' };

export function ValueField({
  column,
  value,
  adding,
  error,
  onChange,
}: {
  column: DbColumn;
  value: FieldValue;
  adding: boolean;
  error?: string;
  onChange: (v: FieldValue) => void;
}) {
  const common = {
    label: <span className="mono">{column.name}</span>,
    hint: columnHint(column),
    error,
    disabled: value.isNull,
  };
  const setText = (text: string) => onChange({ ...value, text });
  let field;
  if (column.type === 'boolean') {
    field = (
      <SelectField {...common} value={value.text} onChange={(e) => setText(e.target.value)}>
        {(adding || value.text === '') && <option value="">{adding ? '(default)' : '(choose)'}</option>}
        <option value="true">true</option>
        <option value="false">false</option>
      </SelectField>
    );
  } else if (column.type === 'jsonb') {
    field = <TextArea {...common} className="input mono" rows={4} value={value.text} spellCheck={false} onChange={(e) => setText(e.target.value)} />;
  } else {
    field = (
      <TextField
        {...common}
        value={value.text}
        inputMode={INPUT_MODE[column.type]}
        autoComplete="off"
        spellCheck={column.type === 'text'}
        onChange={(e) => setText(e.target.value)}
      />
    );
  }
  return (
    <div className="value-field">
      {field}
      {column.nullable && (
        <label className="checkbox null-toggle">
          <input type="checkbox" checked={value.isNull} aria-label={`${column.name} is NULL`} onChange={(e) => onChange({ ...value, isNull: e.target.checked })} />
          NULL
        </label>
      )}
    </div>
  );
}
