// Upload modal: drag and drop or browse, then one progress bar per file (XMLHttpRequest).
import { useRef, useState } from 'react';
import { getUploadObjectUrl } from '../../api/generated/storage/storage';
import type { UploadObject200 } from '../../api/generated/model';
import { errorMessage, uploadWithProgress } from '../../api/http';
import { FileDrop } from '../../components/FileDrop';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { ProgressBar } from '../../components/ProgressBar';
import { formatSize } from '../../lib/format';

type Status = 'queued' | 'uploading' | 'done' | 'error';
interface Item {
  id: number;
  file: File;
  progress: number;
  status: Status;
  error?: string;
}

export function UploadModal({
  open,
  onClose,
  projectId,
  onUploaded,
}: {
  open: boolean;
  onClose: () => void;
  projectId: string;
  onUploaded: () => void;
}) {
  const [items, setItems] = useState<Item[]>([]);
  const [running, setRunning] = useState(false);
  const [folder, setFolder] = useState('');
  const nextId = useRef(1);
  const abort = useRef<AbortController | null>(null);

  const update = (id: number, patch: Partial<Item>) =>
    setItems((list) => list.map((it) => (it.id === id ? { ...it, ...patch } : it)));

  function add(files: File[]) {
    setItems((list) => [
      ...list,
      ...files.map((file) => ({ id: nextId.current++, file, progress: 0, status: 'queued' as Status })),
    ]);
  }

  async function start() {
    const queue = items.filter((it) => it.status === 'queued' || it.status === 'error');
    if (queue.length === 0) return;
    setRunning(true);
    abort.current = new AbortController();
    let uploaded = 0;
    for (const it of queue) {
      if (abort.current.signal.aborted) break;
      update(it.id, { status: 'uploading', progress: 0, error: undefined });
      const form = new FormData();
      form.append('project_id', projectId);
      // Before the file: the server checks the folder before it stores a byte.
      if (folder.trim()) form.append('folder', folder.trim());
      form.append('file', it.file, it.file.name);
      try {
        await uploadWithProgress<UploadObject200>(getUploadObjectUrl(projectId), form, {
          signal: abort.current.signal,
          onProgress: (f) => update(it.id, { progress: f * 100 }),
        });
        update(it.id, { status: 'done', progress: 100 });
        uploaded++;
      } catch (err) {
        const cancelled = err instanceof DOMException && err.name === 'AbortError';
        update(it.id, { status: cancelled ? 'queued' : 'error', progress: 0, error: cancelled ? undefined : errorMessage(err) });
      }
    }
    setRunning(false);
    if (uploaded > 0) onUploaded();
  }

  function close() {
    abort.current?.abort();
    setItems([]);
    setRunning(false);
    onClose();
  }

  const pending = items.filter((it) => it.status === 'queued' || it.status === 'error').length;
  const allDone = items.length > 0 && items.every((it) => it.status === 'done');

  return (
    <Modal
      open={open}
      onClose={close}
      title="Upload files"
      size="lg"
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={close}>
            {allDone ? 'Close' : 'Cancel'}
          </button>
          {!allDone && (
            <button type="button" className="btn btn-primary" onClick={start} disabled={running || pending === 0}>
              <Icon name="upload" size={16} />{' '}
              {running ? 'Uploading...' : pending > 1 ? `Upload ${pending} files` : 'Upload'}
            </button>
          )}
        </>
      }
    >
      <div className="field">
        <label htmlFor="upload-folder">Folder (optional)</label>
        <input
          id="upload-folder"
          className="input"
          value={folder}
          onChange={(e) => setFolder(e.target.value)}
          placeholder="e.g. avatars or users/photos"
          disabled={running}
          maxLength={255}
        />
        <p className="muted field-hint">Access rules apply per folder (see Access rules below the file list).</p>
      </div>
      <FileDrop multiple onFiles={add} disabled={running} title="Drag and drop files here" hint="Any file type. Files are stored in this project's bucket." />
      {items.length > 0 && (
        <ul className="upload-list" aria-label="Files to upload">
          {items.map((it) => (
            <li key={it.id} className={`upload-item upload-${it.status}`}>
              <div className="upload-head">
                <Icon name="file" size={16} />
                <span className="upload-name" title={it.file.name}>
                  {it.file.name}
                </span>
                <span className="muted">{formatSize(it.file.size)}</span>
                {it.status === 'done' && (
                  <span className="upload-state ok">
                    <Icon name="check" size={16} /> Uploaded
                  </span>
                )}
                {it.status === 'queued' && !running && (
                  <button
                    type="button"
                    className="icon-btn"
                    aria-label={`Remove ${it.file.name}`}
                    onClick={() => setItems((l) => l.filter((x) => x.id !== it.id))}
                  >
                    <Icon name="close" size={16} />
                  </button>
                )}
              </div>
              {(it.status === 'uploading' || it.status === 'done') && (
                <ProgressBar value={it.progress} label={`Uploading ${it.file.name}`} tone={it.status === 'done' ? 'success' : 'primary'} />
              )}
              {it.status === 'error' && (
                <p className="field-error" role="alert">
                  {it.error}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
