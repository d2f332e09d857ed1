import type { ReactNode } from 'react';

export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="page-header">
      <div>
        <h1 className="page-title">{title}</h1>
        {description && <p className="page-desc">{description}</p>}
      </div>
      {actions && <div className="page-actions">{actions}</div>}
    </div>
  );
}

export function SampleNotice({ children = 'Sample data: this screen shows example figures until its API is available.' }: { children?: ReactNode }) {
  return (
    <p className="sample-notice" role="note">
      {children}
    </p>
  );
}
