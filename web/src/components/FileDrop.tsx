// Drag and drop area with a Browse button (a real file input, so it works from the keyboard).
import { useId, useRef, useState } from 'react';
import { Icon } from './Icon';

export function FileDrop({
  onFiles,
  accept,
  multiple = false,
  disabled = false,
  title = 'Drag and drop files here',
  hint,
}: {
  onFiles: (files: File[]) => void;
  accept?: string;
  multiple?: boolean;
  disabled?: boolean;
  title?: string;
  hint?: string;
}) {
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();

  function take(list: FileList | null) {
    if (!list || list.length === 0) return;
    const files = Array.from(list);
    onFiles(multiple ? files : files.slice(0, 1));
  }

  return (
    <div
      className={`dropzone${over ? ' is-over' : ''}${disabled ? ' is-disabled' : ''}`}
      data-testid="dropzone"
      onDragEnter={(e) => {
        e.preventDefault();
        if (!disabled) setOver(true);
      }}
      onDragOver={(e) => {
        e.preventDefault();
        if (!disabled) e.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        if (!disabled) take(e.dataTransfer.files);
      }}
    >
      <span className="dropzone-icon">
        <Icon name="upload" size={28} />
      </span>
      <p className="dropzone-title">{title}</p>
      <p className="dropzone-or">or</p>
      <input
        id={id}
        ref={input}
        type="file"
        className="visually-hidden"
        accept={accept}
        multiple={multiple}
        disabled={disabled}
        onChange={(e) => {
          take(e.target.files);
          e.target.value = '';
        }}
      />
      <label htmlFor={id} className={`btn btn-secondary btn-sm${disabled ? ' is-disabled' : ''}`}>
        Browse files
      </label>
      {hint && <p className="dropzone-hint">{hint}</p>}
    </div>
  );
}
