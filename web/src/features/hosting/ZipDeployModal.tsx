// The modal both hosting pages deploy through: their own fields, then the archive, progress and
// error; after an upload of source code, the build's live log in its place.
import type { FormEvent, ReactNode } from 'react';
import { FormError } from '../../components/FormError';
import { FormModal } from '../../components/FormModal';
import { ProgressBar } from '../../components/ProgressBar';
import { BuildLogModal } from './BuildLog';
import { BUILD_NOTE, DEPLOY_MESSAGES, isZip, type ZipDeployForm } from './useZipDeploy';
import { ZipPicker } from './ZipPicker';

export function ZipDeployModal({
  open,
  title,
  formId,
  form,
  onSubmit,
  children,
}: {
  open: boolean;
  title: string;
  formId: string;
  form: ZipDeployForm;
  onSubmit: (e: FormEvent) => void;
  children: ReactNode;
}) {
  const { busy, progress, error, setError, file, setFile } = form;
  return (
    <>
      <FormModal
        open={open}
        onClose={form.close}
        title={title}
        size="lg"
        formId={formId}
        formClassName="form"
        onSubmit={onSubmit}
        busy={busy}
        submitLabel="Deploy"
        busyLabel="Deploying..."
      >
        {children}
        <p className="field-hint">{BUILD_NOTE}</p>
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
      </FormModal>
      <BuildLogModal build={form.build} onClose={form.stopFollowing} />
    </>
  );
}
