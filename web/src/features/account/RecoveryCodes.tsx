import { CopyButton } from '../../components/CopyButton';
import { Icon } from '../../components/Icon';

/** The recovery codes shown once, right after two-factor authentication is turned on. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = codes.join('\n');
  return (
    <div className="recovery" role="status">
      <p>
        <strong>Two-factor authentication is on.</strong> Save these recovery codes somewhere safe. Each one signs you in once if
        you lose your authenticator. They are shown only now.
      </p>
      <ul className="recovery-codes">
        {codes.map((c) => (
          <li key={c} className="mono">
            {c}
          </li>
        ))}
      </ul>
      <div className="inline-flex">
        <CopyButton value={text} label="recovery codes" className="btn btn-secondary btn-sm" text="Copy codes" />
        <a className="btn btn-secondary btn-sm" href={`data:text/plain;charset=utf-8,${encodeURIComponent(text + '\n')}`} download="hostbase-recovery-codes.txt">
          <Icon name="download" size={16} /> Download
        </a>
        <button type="button" className="btn btn-primary btn-sm" onClick={onDone}>
          I saved them
        </button>
      </div>
    </div>
  );
}
