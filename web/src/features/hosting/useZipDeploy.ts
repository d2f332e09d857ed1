// Uploads a site archive to /project/{id}/upload-and-extract-zip/ with progress and the spec's messages.
// A failure is toasted by the mutation cache (meta.errorToast) and kept in `error` for the form.
// Source code answers 202 with a deployment still building: the form then hands it to the live
// build log (BuildLog.tsx) instead of announcing it deployed.
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { getUploadSiteZipUrl } from '../../api/generated/hosting/hosting';
import type { DeployType, UploadSiteZip200, UploadSiteZip202 } from '../../api/generated/model';
import { ApiError, uploadWithProgress } from '../../api/http';
import { useToast } from '../../components/Toast';
import type { FollowedBuild } from './BuildLog';

export const DEPLOY_MESSAGES = {
  uploaded: 'File uploaded successfully!',
  deployed: 'Project deployed!',
  failed: 'Failed to upload file.',
  error: 'An error occurred during upload.',
  needType: 'Please select a project type.',
  needZip: 'Please upload a zip file.',
} as const;

/** The form's one line on what is built: the frameworks the platform detects (builds/detect.ts). */
export const BUILD_NOTE =
  'Source code is built for you (React, Vite, Vue, Angular, Astro, Next.js, Node, PHP with composer.json, Flask with requirements.txt); a zip of built files is served as it is.';

export type DeployAnswer = UploadSiteZip200 | UploadSiteZip202;

export const isBuilding = (res: DeployAnswer) => res.deployment.status === 'building';

export function isZip(file: File): boolean {
  return /\.zip$/i.test(file.name) || file.type === 'application/zip' || file.type === 'application/x-zip-compressed';
}

interface DeployArgs {
  projectId: string;
  domain?: string;
  /** auto: the platform reads the type from the files. */
  type: DeployType;
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
      return uploadWithProgress<DeployAnswer>(getUploadSiteZipUrl(args.projectId), form, {
        onProgress: (f) => setProgress(f * 100),
      });
    },
    meta: { errorToast: { title: DEPLOY_MESSAGES.failed, offline: DEPLOY_MESSAGES.error } },
  });

  async function deploy(args: DeployArgs): Promise<DeployAnswer | null> {
    setError(null);
    setProgress(0);
    try {
      const res = await upload.mutateAsync(args);
      // A live deploy links to the site at once; a build links to it when it ends (BuildLog.tsx).
      if (isBuilding(res)) toast.success(DEPLOY_MESSAGES.uploaded, res.message);
      else toast.success(DEPLOY_MESSAGES.uploaded, DEPLOY_MESSAGES.deployed, { href: res.site_url, label: `Visit ${res.site_url}` });
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
 * `finish` (after a deploy), both clearing the modal's own fields through `resetFields`, and the
 * build to follow when the upload was source code.
 */
export function useZipDeployForm(onClose: () => void, resetFields: () => void) {
  const zip = useZipDeploy();
  const [file, setFile] = useState<File | null>(null);
  const [build, setBuild] = useState<FollowedBuild | null>(null);

  async function deploy(args: DeployArgs): Promise<DeployAnswer | null> {
    const res = await zip.deploy(args);
    if (res && isBuilding(res)) setBuild({ projectId: args.projectId, deploymentId: res.deployment.id, message: res.message, siteUrl: res.site_url });
    return res;
  }

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

  return { ...zip, deploy, file, setFile, close, finish, build, stopFollowing: () => setBuild(null) };
}

export type ZipDeployForm = ReturnType<typeof useZipDeployForm>;
