// Labelled form controls with an optional hint and error, wired with aria attributes.
import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

interface Common {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
}

/** The id and aria attributes of a field's control. */
function useControl(idProp: string | undefined, hint?: ReactNode, error?: string | null) {
  const auto = useId();
  const id = idProp ?? auto;
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return { id, className: 'input', 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy } as const;
}

/** Label, control, then the hint and the error the control is described by. */
function FieldShell({ id, label, hint, error, children }: Common & { id: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** A text input; with `suffix`, a fixed text shown after it (e.g. "@example.com"). */
export function TextField({ label, hint, error, id, suffix, ...input }: Common & { suffix?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const control = useControl(id, hint, error);
  const field = <input {...control} {...input} />;
  return (
    <FieldShell id={control.id} label={label} hint={hint} error={error}>
      {suffix === undefined ? (
        field
      ) : (
        <div className="input-suffix">
          {field}
          <span className="suffix">{suffix}</span>
        </div>
      )}
    </FieldShell>
  );
}

export function TextArea({ label, hint, error, id, ...input }: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const control = useControl(id, hint, error);
  return (
    <FieldShell id={control.id} label={label} hint={hint} error={error}>
      <textarea {...control} {...input} />
    </FieldShell>
  );
}

export function SelectField({ label, hint, error, id, children, ...input }: Common & SelectHTMLAttributes<HTMLSelectElement>) {
  const control = useControl(id, hint, error);
  return (
    <FieldShell id={control.id} label={label} hint={hint} error={error}>
      <select {...control} {...input}>
        {children}
      </select>
    </FieldShell>
  );
}
