// A confirmation in a modal. With requireText the user must type that text to confirm.
import { useEffect, useId, useState, type ReactNode } from 'react';
import { errorMessage } from '../api/http';
import { FormError } from './FormError';
import { FormModal } from './FormModal';

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
    <FormModal
      open={open}
      title={title}
      onClose={onCancel}
      size="sm"
      role="alertdialog"
      formId={`${inputId}-form`}
      onSubmit={(e) => {
        e.preventDefault();
        if (ready && !busy) onConfirm();
      }}
      busy={busy}
      submitLabel={confirmLabel}
      busyLabel={busyLabel ?? `${confirmLabel}...`}
      submitDisabled={!ready || busy}
      danger={danger}
      autoFocusSubmit={!requireText}
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
    </FormModal>
  );
}

/**
 * The state behind a ConfirmDialog about one item: which item awaits confirmation (null: closed)
 * and the error of the last attempt, cleared whenever the dialog opens or a new attempt starts.
 */
export function useConfirmTarget<T>() {
  const [target, setTarget] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const close = () => setTarget(null);
  return {
    target,
    error,
    open: (item: T) => {
      setError(null);
      setTarget(item);
    },
    close,
    /** Starts `attempt` on the item awaiting confirmation, if any. */
    confirm: (attempt: (item: T) => void) => {
      if (target === null) return;
      setError(null);
      attempt(target);
    },
    /** Mutation callbacks: on success close, then `after`; on failure stay open with the message. */
    settle: (after?: () => unknown, message: (err: unknown) => string = (err) => errorMessage(err)) => ({
      onSuccess: async () => {
        close();
        await after?.();
      },
      onError: (err: unknown) => setError(message(err)),
    }),
  };
}
