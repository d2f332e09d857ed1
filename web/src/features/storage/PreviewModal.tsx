import type { StorageFile } from '../../api/generated/model';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { downloadUrl, fileNameFromMetadata, formatDate, formatSize, isImageType } from '../../lib/format';
import { useFileUrl } from './fileUrls';

export function PreviewModal({
  projectId,
  file,
  onClose,
  onShare,
  onStopSharing,
  busy = false,
}: {
  projectId: string;
  file: StorageFile | null;
  onClose: () => void;
  onShare: (file: StorageFile) => void;
  onStopSharing: (file: StorageFile) => void;
  busy?: boolean;
}) {
  const name = file ? fileNameFromMetadata(file.metadata) : '';
  // A private file is shown through a short-lived signed URL; a shared one at its share link.
  const url = useFileUrl(projectId, file);
  return (
    <Modal
      open={!!file}
      onClose={onClose}
      title={name}
      size="lg"
      footer={
        file && (
          <>
            {file.path ? (
              <button type="button" className="btn btn-secondary" onClick={() => onStopSharing(file)} disabled={busy}>
                <Icon name="lock" size={16} /> Stop sharing
              </button>
            ) : null}
            <button type="button" className="btn btn-secondary" onClick={() => onShare(file)} disabled={busy}>
              <Icon name="share" size={16} /> Share
            </button>
            {url ? (
              <a className="btn btn-primary" href={downloadUrl(url)} download={name}>
                <Icon name="download" size={16} /> Download
              </a>
            ) : (
              <button type="button" className="btn btn-primary" disabled>
                <Icon name="download" size={16} /> Download
              </button>
            )}
          </>
        )
      }
    >
      {file && (
        <div className="preview">
          <div className="preview-media">
            {isImageType(file.object_type) && url ? (
              <img src={url} alt={`Preview of ${name}`} className="preview-img" />
            ) : isImageType(file.object_type) ? (
              <div className="preview-placeholder">
                <Icon name="image" size={48} />
                <span>Loading preview...</span>
              </div>
            ) : (
              <div className="preview-placeholder">
                <Icon name={file.object_type === 'folder' ? 'folder' : 'file'} size={48} />
                <span>No preview for {file.object_type || 'this file type'}</span>
              </div>
            )}
          </div>
          <dl className="preview-meta">
            <div>
              <dt>Type</dt>
              <dd>{file.object_type || 'N/A'}</dd>
            </div>
            <div>
              <dt>Size</dt>
              <dd>{formatSize(file.object_size)}</dd>
            </div>
            <div>
              <dt>Object ID</dt>
              <dd className="mono">{file.object_id}</dd>
            </div>
            <div>
              <dt>Uploaded</dt>
              <dd>{formatDate(file.created_at)}</dd>
            </div>
            <div>
              <dt>Last modified</dt>
              <dd>{formatDate(file.updated_at)}</dd>
            </div>
            <div>
              <dt>Sharing</dt>
              <dd>{file.path ? 'Shared: anyone with the link can open it' : 'Private'}</dd>
            </div>
          </dl>
        </div>
      )}
    </Modal>
  );
}
