// Copies a value; a tick replaces the icon for 2 s.
import { useEffect, useRef, useState } from 'react';
import { Icon } from './Icon';

export const COPY_TICK_MS = 2000;

export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall back below */
  }
  try {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  } catch {
    return false;
  }
}

export function CopyButton({
  value,
  label,
  onCopied,
  className = 'icon-btn',
  text,
}: {
  value: string;
  label: string;
  onCopied?: (ok: boolean) => void;
  className?: string;
  text?: string;
}) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <button
      type="button"
      className={`${className}${copied ? ' is-copied' : ''}`}
      aria-label={copied ? `${label} copied` : `Copy ${label}`}
      title={copied ? 'Copied' : `Copy ${label}`}
      onClick={async () => {
        const ok = await copyText(value);
        onCopied?.(ok);
        if (!ok) return;
        setCopied(true);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setCopied(false), COPY_TICK_MS);
      }}
    >
      <Icon name={copied ? 'check' : 'copy'} size={16} />
      {text && <span>{copied ? 'Copied' : text}</span>}
    </button>
  );
}
