// A modal that holds one form: its fields in the body, and Cancel plus the form's submit button in the
// footer (tied to the form by id, since the footer sits outside it). Both are disabled while it runs.
import type { FormEvent, ReactNode } from 'react';
import { Modal, type ModalProps } from './Modal';

export interface FormModalProps extends Pick<ModalProps, 'open' | 'title' | 'onClose' | 'size' | 'role'> {
  formId: string;
  formClassName?: string;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  /** Defaults to `busy`. */
  submitDisabled?: boolean;
  danger?: boolean;
  /** The submit button takes the focus when the modal opens. */
  autoFocusSubmit?: boolean;
  children: ReactNode;
}

export function FormModal({
  formId,
  formClassName,
  onSubmit,
  busy,
  submitLabel,
  busyLabel,
  submitDisabled,
  danger = false,
  autoFocusSubmit = false,
  children,
  ...modal
}: FormModalProps) {
  return (
    <Modal
      {...modal}
      busy={busy}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={modal.onClose} disabled={busy}>
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
      }
    >
      <form id={formId} className={formClassName} onSubmit={onSubmit}>
        {children}
      </form>
    </Modal>
  );
}
