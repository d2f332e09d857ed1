// Loading, empty and error states used by every list.
import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon';
import { errorMessage } from '../api/http';

export function Spinner({ size = 18 }: { size?: number }) {
  return <span className="spinner" style={{ width: size, height: size }} aria-hidden="true" />;
}

export function Loading({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="state state-loading" role="status">
      <Spinner size={22} />
      <span>{label}</span>
    </div>
  );
}

export function Empty({
  icon = 'folder',
  title,
  children,
  action,
}: {
  icon?: IconName;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="state state-empty">
      <span className="state-icon">
        <Icon name={icon} size={28} />
      </span>
      <p className="state-title">{title}</p>
      {children && <p className="state-text">{children}</p>}
      {action}
    </div>
  );
}

export function ErrorState({
  title = 'Something went wrong',
  error,
  onRetry,
}: {
  title?: string;
  error: unknown;
  onRetry?: () => void;
}) {
  return (
    <div className="state state-error" role="alert">
      <span className="state-icon">
        <Icon name="alert" size={28} />
      </span>
      <p className="state-title">{title}</p>
      <p className="state-text">{errorMessage(error)}</p>
      {onRetry && (
        <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
          <Icon name="refresh" size={16} /> Try again
        </button>
      )}
    </div>
  );
}

export function PageLoader() {
  return (
    <div className="page-loader">
      <Loading />
    </div>
  );
}

/** What QueryView reads of a query (a generated hook's result). */
export interface QueryLike<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: T | undefined;
  refetch: () => unknown;
}

/**
 * A query's loading and error states, then its empty state (when `isEmpty` says so) or its data.
 */
export function QueryView<T>({
  query,
  loading,
  errorTitle,
  isEmpty,
  empty,
  children,
}: {
  query: QueryLike<T>;
  loading: string;
  errorTitle: string;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading label={loading} />;
  if (query.isError) return <ErrorState title={errorTitle} error={query.error} onRetry={() => query.refetch()} />;
  const data = query.data as T;
  return <>{isEmpty?.(data) ? empty : children(data)}</>;
}
