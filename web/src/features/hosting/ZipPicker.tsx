import { FileDrop } from '../../components/FileDrop';
import { Icon } from '../../components/Icon';
import { formatSize } from '../../lib/format';

export function ZipPicker({ file, onFile, disabled }: { file: File | null; onFile: (f: File | null) => void; disabled?: boolean }) {
  return (
    <div className="field">
      <span className="field-label" id="zip-label">
        Site archive (.zip)
      </span>
      {file ? (
        <div className="zip-chosen" aria-labelledby="zip-label">
          <Icon name="file" size={16} />
          <span className="upload-name">{file.name}</span>
          <span className="muted">{formatSize(file.size)}</span>
          <button type="button" className="icon-btn" onClick={() => onFile(null)} disabled={disabled} aria-label="Remove the archive">
            <Icon name="close" size={16} />
          </button>
        </div>
      ) : (
        <FileDrop
          accept=".zip,application/zip"
          onFiles={(files) => onFile(files[0] ?? null)}
          disabled={disabled}
          title="Drag and drop a .zip file here"
          hint="Zip the built site (for example the dist folder; index.html is served at the root) or the source folder to build."
        />
      )}
    </div>
  );
}
