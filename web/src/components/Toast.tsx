// Toasts: the spec's alert() messages, announced to assistive technology.
// Success and info toasts are role=status (polite); errors are role=alert.
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Icon } from './Icon';

type Kind = 'success' | 'error' | 'info';
/** A link under a toast's text: where the thing just done can be seen (a deployed site). */
export interface ToastLink {
  href: string;
  label: string;
}
interface ToastItem {
  id: number;
  kind: Kind;
  title: string;
  detail?: string;
  link?: ToastLink;
}

export interface ToastApi {
  success: (title: string, detail?: string, link?: ToastLink) => void;
  error: (title: string, detail?: string) => void;
  info: (title: string, detail?: string) => void;
}

const ToastContext = createContext<ToastApi | null>(null);

const DURATION: Record<Kind, number> = { success: 4000, info: 5000, error: 8000 };

export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const next = useRef(1);

  const dismiss = useCallback((id: number) => setItems((list) => list.filter((t) => t.id !== id)), []);

  const push = useCallback(
    (kind: Kind, title: string, detail?: string, link?: ToastLink) => {
      const id = next.current++;
      // A detail equal to the title adds nothing.
      const d = detail && detail !== title ? detail : undefined;
      setItems((list) => [...list.slice(-2), { id, kind, title, detail: d, link }]);
      // A toast with a link stays long enough to reach it.
      setTimeout(() => dismiss(id), link ? DURATION.error : DURATION[kind]);
    },
    [dismiss],
  );

  const api = useMemo<ToastApi>(
    () => ({
      success: (t, d, l) => push('success', t, d, l),
      error: (t, d) => push('error', t, d),
      info: (t, d) => push('info', t, d),
    }),
    [push],
  );

  return (
    <ToastContext.Provider value={api}>
      {children}
      {createPortal(
      <div className="toasts" aria-live="polite">
        {items.map((t) => (
          <div key={t.id} className={`toast toast-${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'}>
            <Icon name={t.kind === 'success' ? 'check' : t.kind === 'error' ? 'alert' : 'info'} />
            <div className="toast-text">
              <p className="toast-title">{t.title}</p>
              {t.detail && <p className="toast-detail">{t.detail}</p>}
              {t.link && (
                <a className="toast-detail" href={t.link.href} target="_blank" rel="noreferrer">
                  {t.link.label}
                </a>
              )}
            </div>
            <button type="button" className="icon-btn" aria-label="Dismiss notification" onClick={() => dismiss(t.id)}>
              <Icon name="close" size={16} />
            </button>
          </div>
        ))}
      </div>,
      // Outside the app root, so toasts stay readable while a modal makes the page inert.
      document.body,
      )}
    </ToastContext.Provider>
  );
}

const noop: ToastApi = { success: () => {}, error: () => {}, info: () => {} };

export function useToast(): ToastApi {
  return useContext(ToastContext) ?? noop;
}
