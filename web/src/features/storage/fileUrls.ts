// Where the console opens, previews and downloads a file: its share link while it is shared, else
// a short-lived signed URL the console asks for (files are private; an <img> or a new tab can't
// send the developer's token).
import { useQuery } from '@tanstack/react-query';
import { createConsoleSignedUrl } from '../../api/generated/storage/storage';
import type { StorageFile } from '../../api/generated/model';

/** Ten minutes: long enough to look at a preview, short enough that a copied URL soon ends. */
export const CONSOLE_SIGNED_URL_SECONDS = 600;

export async function signedFileUrl(projectId: string, objectId: string): Promise<string> {
  const res = await createConsoleSignedUrl(projectId, { object_id: objectId, expires_in: CONSOLE_SIGNED_URL_SECONDS });
  return res.signed_url.url;
}

/** The URL to show a file at: its share link, or a signed URL (renewed before it ends). */
export function useFileUrl(projectId: string, file: StorageFile | null): string | undefined {
  const signed = useQuery({
    queryKey: ['consoleSignedUrl', projectId, file?.object_id],
    queryFn: () => signedFileUrl(projectId, file!.object_id),
    enabled: !!file && !file.path,
    staleTime: (CONSOLE_SIGNED_URL_SECONDS / 2) * 1000,
  });
  if (!file) return undefined;
  return file.path ?? signed.data;
}

/**
 * Opens a file in a new tab. The tab is opened at once (a browser blocks a window opened after a
 * wait) and pointed at the URL when it is known.
 */
export async function openFile(projectId: string, file: StorageFile): Promise<void> {
  if (file.path) {
    window.open(file.path, '_blank', 'noopener');
    return;
  }
  const tab = window.open('', '_blank');
  try {
    const url = await signedFileUrl(projectId, file.object_id);
    if (tab) {
      tab.opener = null;
      tab.location.href = url;
    } else window.open(url, '_blank', 'noopener');
  } catch (err) {
    tab?.close();
    throw err;
  }
}
