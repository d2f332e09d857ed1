// Uploads a site archive to /project/{id}/upload-and-extract-zip/ with progress and the spec's messages.
// A failure is toasted by the mutation cache (meta.errorToast) and kept in `error` for the form.
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { getUploadSiteZipUrl } from '../../api/generated/hosting/hosting';
import type { ProjectType, UploadSiteZip200 } from '../../api/generated/model';
import { ApiError, uploadWithProgress } from '../../api/http';
import { useToast } from '../../components/Toast';

export const DEPLOY_MESSAGES = {
  uploaded: 'File uploaded successfully!',
  deployed: 'Project deployed!',
  failed: 'Failed to upload file.',
  error: 'An error occurred during upload.',
  needType: 'Please select a project type.',
  needZip: 'Please upload a zip file.',
} as const;

export function isZip(file: File): boolean {
  return /\.zip$/i.test(file.name) || file.type === 'application/zip' || file.type === 'application/x-zip-compressed';
}

interface DeployArgs {
  projectId: string;
  domain?: string;
  type: ProjectType;
  file: File;
}

export function useZipDeploy() {
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const upload = useMutation({
    mutationFn: (args: DeployArgs) => {
      const form = new FormData();
      form.append('type', args.type);
      form.append('projectId', args.projectId);
      if (args.domain) form.append('domain', args.domain);
      form.append('file', args.file, args.file.name);
      return uploadWithProgress<UploadSiteZip200>(getUploadSiteZipUrl(args.projectId), form, {
        onProgress: (f) => setProgress(f * 100),
      });
    },
    meta: { errorToast: { title: DEPLOY_MESSAGES.failed, offline: DEPLOY_MESSAGES.error } },
  });

  async function deploy(args: DeployArgs): Promise<UploadSiteZip200 | null> {
    setError(null);
    setProgress(0);
    try {
      const res = await upload.mutateAsync(args);
      toast.success(DEPLOY_MESSAGES.uploaded, DEPLOY_MESSAGES.deployed);
      return res;
    } catch (err) {
      setError(err instanceof ApiError && err.status > 0 ? `${DEPLOY_MESSAGES.failed} ${err.serverMessage ?? ''}`.trim() : DEPLOY_MESSAGES.error);
      return null;
    } finally {
      setProgress(null);
    }
  }

  return { deploy, progress, busy: progress !== null, error, setError };
}

/**
 * useZipDeploy for a deploy modal: also the chosen archive, `close` (refused while uploading) and
 * `finish` (after a deploy), both clearing the modal's own fields through `resetFields`.
 */
export function useZipDeployForm(onClose: () => void, resetFields: () => void) {
  const zip = useZipDeploy();
  const [file, setFile] = useState<File | null>(null);

  function finish() {
    resetFields();
    setFile(null);
    onClose();
  }

  function close() {
    if (zip.busy) return;
    zip.setError(null);
    finish();
  }

  return { ...zip, file, setFile, close, finish };
}

export type ZipDeployForm = ReturnType<typeof useZipDeployForm>;
