// The footer of a modal that holds a form: Cancel, and the submit button of that form (by id,
// since the footer sits outside it). Both are disabled while the request runs.
export interface ModalActionsProps {
  formId: string;
  onCancel: () => void;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  /** Defaults to `busy`. */
  submitDisabled?: boolean;
  danger?: boolean;
  /** The submit button takes the focus when the modal opens. */
  autoFocusSubmit?: boolean;
}

export function ModalActions({ formId, onCancel, busy, submitLabel, busyLabel, submitDisabled, danger = false, autoFocusSubmit = false }: ModalActionsProps) {
  return (
    <>
      <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
        Cancel
      </button>
      <button
        type="submit"
        form={formId}
        className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}
        disabled={submitDisabled ?? busy}
        data-autofocus={autoFocusSubmit ? true : undefined}
      >
        {busy ? busyLabel : submitLabel}
      </button>
    </>
  );
}
