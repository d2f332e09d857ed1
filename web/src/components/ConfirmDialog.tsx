// A confirmation in a modal. With requireText the user must type that text to confirm.
import { useEffect, useId, useState, type ReactNode } from 'react';
import { FormError } from './FormError';
import { Modal } from './Modal';
import { ModalActions } from './ModalActions';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  busyLabel?: string;
  danger?: boolean;
  busy?: boolean;
  error?: string | null;
  requireText?: string;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel = 'Confirm',
  busyLabel,
  danger = false,
  busy = false,
  error,
  requireText,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const [typed, setTyped] = useState('');
  const inputId = useId();
  useEffect(() => {
    if (open) setTyped('');
  }, [open]);
  const ready = !requireText || typed === requireText;

  return (
    <Modal
      open={open}
      title={title}
      onClose={onCancel}
      busy={busy}
      size="sm"
      role="alertdialog"
      footer={
        <ModalActions
          formId={`${inputId}-form`}
          onCancel={onCancel}
          busy={busy}
          submitLabel={confirmLabel}
          busyLabel={busyLabel ?? `${confirmLabel}...`}
          submitDisabled={!ready || busy}
          danger={danger}
          autoFocusSubmit={!requireText}
        />
      }
    >
      <form
        id={`${inputId}-form`}
        onSubmit={(e) => {
          e.preventDefault();
          if (ready && !busy) onConfirm();
        }}
      >
        <div className="confirm-message">{message}</div>
        {requireText && (
          <div className="field">
            <label htmlFor={inputId}>
              Type <strong className="mono">{requireText}</strong> to confirm
            </label>
            <input
              id={inputId}
              className="input"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              data-autofocus
            />
          </div>
        )}
        <FormError message={error} />
      </form>
    </Modal>
  );
}

/**
 * The state behind a ConfirmDialog about one item: which item awaits confirmation (null: closed)
 * and the error of the last attempt, cleared whenever the dialog opens.
 */
export function useConfirmTarget<T>() {
  const [target, setTarget] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  return {
    target,
    error,
    setError,
    open: (item: T) => {
      setError(null);
      setTarget(item);
    },
    close: () => setTarget(null),
  };
}
