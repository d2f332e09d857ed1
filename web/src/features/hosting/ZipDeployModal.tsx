// The modal both hosting pages deploy through: their own fields, then the archive, progress and error.
import type { FormEvent, ReactNode } from 'react';
import { FormError } from '../../components/FormError';
import { Modal } from '../../components/Modal';
import { ModalActions } from '../../components/ModalActions';
import { ProgressBar } from '../../components/ProgressBar';
import { DEPLOY_MESSAGES, isZip } from './useZipDeploy';
import { ZipPicker } from './ZipPicker';

export function ZipDeployModal({
  open,
  title,
  formId,
  busy,
  progress,
  error,
  setError,
  file,
  setFile,
  onClose,
  onSubmit,
  children,
}: {
  open: boolean;
  title: string;
  formId: string;
  busy: boolean;
  progress: number | null;
  error: string | null;
  setError: (message: string | null) => void;
  file: File | null;
  setFile: (file: File | null) => void;
  onClose: () => void;
  onSubmit: (e: FormEvent) => void;
  children: ReactNode;
}) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      busy={busy}
      title={title}
      size="lg"
      footer={<ModalActions formId={formId} onCancel={onClose} busy={busy} submitLabel="Deploy" busyLabel="Deploying..." />}
    >
      <form id={formId} className="form" onSubmit={onSubmit}>
        {children}
        <ZipPicker
          file={file}
          onFile={(f) => {
            setError(null);
            if (f && !isZip(f)) setError(DEPLOY_MESSAGES.needZip);
            else setFile(f);
          }}
          disabled={busy}
        />
        {progress !== null && <ProgressBar value={progress} label="Uploading the archive" />}
        <FormError message={error} />
      </form>
    </Modal>
  );
}
