import type { FormEvent } from 'react';
import { TextField } from './Field';

/**
 * One text field and its Add button on a line (the mail domain and the site's custom domains).
 * The caller keeps the value and the error, validates and submits.
 */
export function InlineAddForm({
  label,
  placeholder,
  value,
  error,
  pending,
  submitLabel,
  onChange,
  onSubmit,
}: {
  label: string;
  placeholder: string;
  value: string;
  error: string | null;
  pending: boolean;
  submitLabel: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
}) {
  function submit(e: FormEvent) {
    e.preventDefault();
    onSubmit();
  }
  return (
    <form className="form form-inline" onSubmit={submit} noValidate>
      <TextField
        label={label}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        error={error}
        autoComplete="off"
        spellCheck={false}
      />
      <button type="submit" className="btn btn-primary" disabled={pending}>
        {pending ? 'Adding...' : submitLabel}
      </button>
    </form>
  );
}
