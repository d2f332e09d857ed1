export function Logo({ compact = false }: { compact?: boolean }) {
  return (
    <span className="logo">
      <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="currentColor" className="logo-mark" />
        <path d="M10 9v14M22 9v14M10 16h12" stroke="#fff" strokeWidth="3.2" strokeLinecap="round" />
      </svg>
      {!compact && <span className="logo-text">Hostbase</span>}
    </span>
  );
}
