import { useState } from 'react';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { getListObjectsQueryKey, useDeleteObjects, useListObjects, useShareObject, useUnshareObject } from '../../api/generated/storage/storage';
import type { StorageFile } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { allOf, inlineError } from '../../api/queryClient';
import { ConfirmDialog, useConfirmTarget } from '../../components/ConfirmDialog';
import { copyText } from '../../components/CopyButton';
import { Icon } from '../../components/Icon';
import { IconButton } from '../../components/IconButton';
import { PageHeader } from '../../components/PageHeader';
import { DataTable, Pager } from '../../components/DataTable';
import { Empty, QueryView } from '../../components/States';
import { useToast } from '../../components/Toast';
import { absoluteUrl, fileNameFromMetadata, formatDate, formatSize, isImageType } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';
import { useProject } from '../console/ProjectLayout';
import { PreviewModal } from './PreviewModal';
import { UploadModal } from './UploadModal';
import { StorageUsage } from './StorageUsage';
import { SignedLinksPanel, StorageRulesPanel } from './StorageAccessPanels';
import { openFile } from './fileUrls';

export const SHARE_COPIED = 'Share link copied to clipboard!';

export default function StoragePage() {
  usePageTitle('Storage');
  const { projectId } = useProject();
  const [page, setPage] = useState(1);
  const files = useListObjects(projectId, { page }, { query: { placeholderData: keepPreviousData } });
  const [uploading, setUploading] = useState(false);
  const [preview, setPreview] = useState<StorageFile | null>(null);
  const toDelete = useConfirmTarget<StorageFile>();
  const del = useDeleteObjects(inlineError);
  const shareFile = useShareObject(inlineError);
  const unshareFile = useUnshareObject(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();

  const refresh = () => queryClient.invalidateQueries({ queryKey: allOf(getListObjectsQueryKey(projectId)) });
  /** The preview shows the file as it is now (shared or not). */
  const updated = (file: StorageFile) => setPreview((p) => (p?.object_id === file.object_id ? file : p));

  // Files are private: the share link exists once the file is shared (a file already shared keeps
  // its link), so sharing comes first, then the copy.
  async function share(file: StorageFile) {
    let path: string;
    try {
      const res = await shareFile.mutateAsync({ projectId, data: { object_id: file.object_id } });
      if (!res.file.path) throw new Error('The server answered without a share link');
      path = absoluteUrl(res.file.path);
      updated(res.file);
      void refresh();
    } catch (err) {
      toast.error('Could not share the file', errorMessage(err));
      return;
    }
    const ok = await copyText(path);
    if (ok) toast.success(SHARE_COPIED);
    else toast.error('Could not copy to the clipboard', path);
  }

  async function stopSharing(file: StorageFile) {
    try {
      await unshareFile.mutateAsync({ projectId, data: { object_id: file.object_id } });
    } catch (err) {
      toast.error('Could not stop sharing the file', errorMessage(err));
      return;
    }
    toast.success('Sharing stopped: the share link no longer works', fileNameFromMetadata(file.metadata));
    updated({ ...file, path: null });
    await refresh();
  }

  const open = (file: StorageFile) => openFile(projectId, file).catch((err) => toast.error('Could not open the file', errorMessage(err)));

  const confirmDelete = () =>
    toDelete.confirm((file) =>
      del.mutate(
        { projectId, data: { file_ids: [file.object_id] } },
        toDelete.settle(async () => {
          toast.success('File deleted', fileNameFromMetadata(file.metadata));
          if (preview?.object_id === file.object_id) setPreview(null);
          // Step back when the last file of a page is gone.
          if (files.data && files.data.files.length === 1 && page > 1) setPage(page - 1);
          await refresh();
        }),
      ),
    );

  const data = files.data;

  return (
    <div className="console-page">
      <PageHeader
        title="Storage"
        description="Files in this project's bucket are private. Sharing one makes a public link, until you stop sharing it."
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => refresh()} disabled={files.isFetching}>
              <Icon name="refresh" size={16} /> Refresh
            </button>
            <button type="button" className="btn btn-primary" onClick={() => setUploading(true)}>
              <Icon name="upload" size={16} /> Upload
            </button>
          </>
        }
      />

      {data ? (
        <div className="card usage-card">
          <StorageUsage usage={data} />
        </div>
      ) : null}

      <QueryView
        query={files}
        loading="Loading files..."
        errorTitle="Could not load files"
        isEmpty={(d) => d.files.length === 0}
        empty={
          <Empty
            icon="cloud"
            title="No files yet"
            action={
              <button type="button" className="btn btn-primary" onClick={() => setUploading(true)}>
                <Icon name="upload" size={16} /> Upload files
              </button>
            }
          >
            Upload a file to store it in this project&apos;s bucket.
          </Empty>
        }
      >
        {(data) => {
          const first = data.total > 0 ? (data.page - 1) * data.page_size + 1 : 0;
          const last = first + data.files.length - 1;
          return (
            <div className="card table-card">
              <DataTable caption="Files" columns={['Name', 'Size', 'Modified']} actions>
                {data.files.map((f) => {
                  const name = fileNameFromMetadata(f.metadata);
                  return (
                    <tr key={f.object_id}>
                      <td data-label="Name">
                        <button type="button" className="file-name" onClick={() => setPreview(f)} aria-label={`Preview ${name}`}>
                          <Icon name={f.object_type === 'folder' ? 'folder' : isImageType(f.object_type) ? 'image' : 'file'} size={16} />
                          <span>
                            {f.folder ? <span className="muted">{f.folder}/</span> : null}
                            {name}
                          </span>
                          {f.path ? <span className="pill pill-green">Shared</span> : null}
                        </button>
                      </td>
                      <td data-label="Size">{formatSize(f.object_size)}</td>
                      <td data-label="Modified">{formatDate(f.updated_at)}</td>
                      <td className="col-actions">
                        <div className="row-actions">
                          <IconButton icon="external" onClick={() => open(f)} label={`Open ${name} in a new tab`} title="Open in new tab" />
                          <IconButton icon="share" onClick={() => share(f)} label={`Copy share link of ${name}`} title="Copy share link" />
                          <IconButton icon="trash" danger onClick={() => toDelete.open(f)} label={`Delete ${name}`} title="Delete" />
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </DataTable>
              <Pager
                summary={
                  <>
                    Showing {first} to {last} of {data.total} files
                  </>
                }
                page={<>Page {page}</>}
                onPrevious={() => setPage((p) => Math.max(1, p - 1))}
                onNext={() => data.next_page && setPage(data.next_page)}
                previousDisabled={page <= 1 || files.isFetching}
                nextDisabled={!data.next_page || files.isFetching}
              />
            </div>
          );
        }}
      </QueryView>

      <StorageRulesPanel projectId={projectId} />
      <SignedLinksPanel projectId={projectId} files={data?.files ?? []} />

      <UploadModal open={uploading} onClose={() => setUploading(false)} projectId={projectId} onUploaded={() => refresh()} />
      <PreviewModal
        projectId={projectId}
        file={preview}
        onClose={() => setPreview(null)}
        onShare={share}
        onStopSharing={stopSharing}
        busy={shareFile.isPending || unshareFile.isPending}
      />
      <ConfirmDialog
        open={!!toDelete.target}
        title="Delete file"
        danger
        confirmLabel="Delete"
        busyLabel="Deleting..."
        busy={del.isPending}
        error={toDelete.error}
        message={
          <p>
            Delete <strong>{toDelete.target ? fileNameFromMetadata(toDelete.target.metadata) : ''}</strong>? Its share link stops working. This
            cannot be undone.
          </p>
        }
        onConfirm={confirmDelete}
        onCancel={toDelete.close}
      />
    </div>
  );
}
