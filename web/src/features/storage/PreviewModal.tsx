import type { StorageFile } from '../../api/generated/model';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { downloadUrl, fileNameFromMetadata, formatDate, formatSize, isImageType } from '../../lib/format';

export function PreviewModal({
  file,
  onClose,
  onShare,
}: {
  file: StorageFile | null;
  onClose: () => void;
  onShare: (file: StorageFile) => void;
}) {
  const name = file ? fileNameFromMetadata(file.metadata) : '';
  return (
    <Modal
      open={!!file}
      onClose={onClose}
      title={name}
      size="lg"
      footer={
        file && (
          <>
            <button type="button" className="btn btn-secondary" onClick={() => onShare(file)}>
              <Icon name="share" size={16} /> Share
            </button>
            <a className="btn btn-primary" href={downloadUrl(file.path)} download={name}>
              <Icon name="download" size={16} /> Download
            </a>
          </>
        )
      }
    >
      {file && (
        <div className="preview">
          <div className="preview-media">
            {isImageType(file.object_type) ? (
              <img src={file.path} alt={`Preview of ${name}`} className="preview-img" />
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
          </dl>
        </div>
      )}
    </Modal>
  );
}
