import { useState } from 'react';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { getListObjectsQueryKey, useDeleteObjects, useListObjects } from '../../api/generated/storage/storage';
import type { StorageFile } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { allOf, inlineError } from '../../api/queryClient';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { copyText } from '../../components/CopyButton';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { Empty, ErrorState, Loading } from '../../components/States';
import { useToast } from '../../components/Toast';
import { absoluteUrl, fileNameFromMetadata, formatDate, formatSize, isImageType } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';
import { useProject } from '../console/ProjectLayout';
import { PreviewModal } from './PreviewModal';
import { UploadModal } from './UploadModal';
import { StorageUsage } from './StorageUsage';

export const SHARE_COPIED = 'Share link copied to clipboard!';

export default function StoragePage() {
  usePageTitle('Storage');
  const { projectId } = useProject();
  const [page, setPage] = useState(1);
  const files = useListObjects(projectId, { page }, { query: { placeholderData: keepPreviousData } });
  const [uploading, setUploading] = useState(false);
  const [preview, setPreview] = useState<StorageFile | null>(null);
  const [toDelete, setToDelete] = useState<StorageFile | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const del = useDeleteObjects(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();

  const refresh = () => queryClient.invalidateQueries({ queryKey: allOf(getListObjectsQueryKey(projectId)) });

  async function share(file: StorageFile) {
    const ok = await copyText(absoluteUrl(file.path));
    if (ok) toast.success(SHARE_COPIED);
    else toast.error('Could not copy to the clipboard', absoluteUrl(file.path));
  }

  function confirmDelete() {
    if (!toDelete) return;
    setDeleteError(null);
    del.mutate(
      { projectId, data: { file_ids: [toDelete.object_id] } },
      {
        onSuccess: async () => {
          toast.success('File deleted', fileNameFromMetadata(toDelete.metadata));
          if (preview?.object_id === toDelete.object_id) setPreview(null);
          setToDelete(null);
          // Step back when the last file of a page is gone.
          if (files.data && files.data.files.length === 1 && page > 1) setPage(page - 1);
          await refresh();
        },
        onError: (err) => setDeleteError(errorMessage(err)),
      },
    );
  }

  const data = files.data;
  const first = data && data.total > 0 ? (data.page - 1) * data.page_size + 1 : 0;
  const last = data ? first + data.files.length - 1 : 0;

  return (
    <div className="console-page">
      <PageHeader
        title="Storage"
        description="Files in this project's bucket. Share links are public."
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

      {files.isPending ? (
        <Loading label="Loading files..." />
      ) : files.isError ? (
        <ErrorState title="Could not load files" error={files.error} onRetry={() => files.refetch()} />
      ) : data!.files.length === 0 ? (
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
      ) : (
        <div className="card table-card">
          <div className="table-scroll">
            <table className="table">
              <caption className="visually-hidden">Files</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Size</th>
                  <th scope="col">Modified</th>
                  <th scope="col" className="col-actions">
                    Actions
                  </th>
                </tr>
              </thead>
              <tbody>
                {data!.files.map((f) => {
                  const name = fileNameFromMetadata(f.metadata);
                  return (
                    <tr key={f.object_id}>
                      <td data-label="Name">
                        <button type="button" className="file-name" onClick={() => setPreview(f)} aria-label={`Preview ${name}`}>
                          <Icon name={f.object_type === 'folder' ? 'folder' : isImageType(f.object_type) ? 'image' : 'file'} size={16} />
                          <span>{name}</span>
                        </button>
                      </td>
                      <td data-label="Size">{formatSize(f.object_size)}</td>
                      <td data-label="Modified">{formatDate(f.updated_at)}</td>
                      <td className="col-actions">
                        <div className="row-actions">
                          <a className="icon-btn" href={f.path} target="_blank" rel="noreferrer" aria-label={`Open ${name} in a new tab`} title="Open in new tab">
                            <Icon name="external" size={16} />
                          </a>
                          <button type="button" className="icon-btn" onClick={() => share(f)} aria-label={`Copy share link of ${name}`} title="Copy share link">
                            <Icon name="share" size={16} />
                          </button>
                          <button
                            type="button"
                            className="icon-btn icon-btn-danger"
                            onClick={() => {
                              setDeleteError(null);
                              setToDelete(f);
                            }}
                            aria-label={`Delete ${name}`}
                            title="Delete"
                          >
                            <Icon name="trash" size={16} />
                          </button>
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <div className="table-foot">
            <span className="muted">
              Showing {first} to {last} of {data!.total} files
            </span>
            <div className="pager">
              <button type="button" className="btn btn-secondary btn-sm" onClick={() => setPage((p) => Math.max(1, p - 1))} disabled={page <= 1 || files.isFetching}>
                <Icon name="chevronLeft" size={16} /> Previous
              </button>
              <span className="pager-page">Page {page}</span>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => data!.next_page && setPage(data!.next_page)}
                disabled={!data!.next_page || files.isFetching}
              >
                Next <Icon name="chevronRight" size={16} />
              </button>
            </div>
          </div>
        </div>
      )}

      <UploadModal open={uploading} onClose={() => setUploading(false)} projectId={projectId} onUploaded={() => refresh()} />
      <PreviewModal file={preview} onClose={() => setPreview(null)} onShare={share} />
      <ConfirmDialog
        open={!!toDelete}
        title="Delete file"
        danger
        confirmLabel="Delete"
        busyLabel="Deleting..."
        busy={del.isPending}
        error={deleteError}
        message={
          <p>
            Delete <strong>{toDelete ? fileNameFromMetadata(toDelete.metadata) : ''}</strong>? Its share link stops working. This
            cannot be undone.
          </p>
        }
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </div>
  );
}
