// Uploads a site archive to /project/{id}/upload-and-extract-zip/ with progress and the spec's messages.
import { useState } from 'react';
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

export function useZipDeploy() {
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();

  async function deploy(args: { projectId: string; domain?: string; type: ProjectType; file: File }): Promise<UploadSiteZip200 | null> {
    setError(null);
    setProgress(0);
    const form = new FormData();
    form.append('type', args.type);
    form.append('projectId', args.projectId);
    if (args.domain) form.append('domain', args.domain);
    form.append('file', args.file, args.file.name);
    try {
      const res = await uploadWithProgress<UploadSiteZip200>(getUploadSiteZipUrl(args.projectId), form, {
        onProgress: (f) => setProgress(f * 100),
      });
      toast.success(DEPLOY_MESSAGES.uploaded, DEPLOY_MESSAGES.deployed);
      return res;
    } catch (err) {
      if (err instanceof ApiError && err.status > 0) {
        setError(`${DEPLOY_MESSAGES.failed} ${err.serverMessage ?? ''}`.trim());
        toast.error(DEPLOY_MESSAGES.failed, err.serverMessage);
      } else {
        setError(DEPLOY_MESSAGES.error);
        toast.error(DEPLOY_MESSAGES.error);
      }
      return null;
    } finally {
      setProgress(null);
    }
  }

  return { deploy, progress, busy: progress !== null, error, setError };
}
