import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getListSiteDomainsQueryKey, useAddSiteDomain, useListSiteDomains, useRemoveSiteDomain, useVerifySiteDomain } from '../../api/generated/hosting/hosting';
import type { SiteDomain } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyButton } from '../../components/CopyButton';
import { InlineAddForm } from '../../components/InlineAddForm';
import { Empty, ErrorState, Loading } from '../../components/States';
import { Pill } from '../../components/StatusBadge';
import { useToast } from '../../components/Toast';
import { formatDate } from '../../lib/format';

const STATUS: Record<SiteDomain['status'], { tone: 'green' | 'yellow' | 'red' | 'gray'; label: string }> = {
  pending: { tone: 'yellow', label: 'DNS not verified' },
  issuing: { tone: 'gray', label: 'Getting certificate' },
  active: { tone: 'green', label: 'HTTPS active' },
  failed: { tone: 'red', label: 'Certificate failed' },
};

/** The site's custom domains: add one, the record to publish, Verify, status and Remove. */
export function Domains({ projectId }: { projectId: string }) {
  const domains = useListSiteDomains(projectId, {
    query: { refetchInterval: (q) => (q.state.data?.some((d) => d.status === 'issuing') ? 3_000 : false) },
  });
  const [hostname, setHostname] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddSiteDomain(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();
  const refresh = () => queryClient.invalidateQueries({ queryKey: getListSiteDomainsQueryKey(projectId) });

  function onSubmit() {
    if (!hostname.trim()) return setError('Hostname is required');
    setError(null);
    add.mutate(
      { projectId, data: { hostname: hostname.trim() } },
      {
        onSuccess: async (d) => {
          toast.success('Domain added', `Publish the DNS record for ${d.hostname}, then verify.`);
          setHostname('');
          await refresh();
        },
        onError: (err) => setError(errorMessage(err, 'Something went wrong. Please try again.')),
      },
    );
  }

  return (
    <section className="card panel" aria-labelledby="domains-title">
      <h2 id="domains-title" className="panel-title">Domains</h2>
      <p className="muted">Serve this site at your own hostname, with a certificate the platform obtains and renews.</p>
      <InlineAddForm
        label="Hostname"
        placeholder="www.example.com"
        value={hostname}
        error={error}
        pending={add.isPending}
        submitLabel="Add Domain"
        onChange={(value) => {
          setHostname(value);
          setError(null);
        }}
        onSubmit={onSubmit}
      />
      {domains.isPending ? (
        <Loading label="Loading domains..." />
      ) : domains.isError ? (
        <ErrorState title="Could not load domains" error={domains.error} onRetry={() => domains.refetch()} />
      ) : domains.data.length === 0 ? (
        <Empty icon="globe" title="No custom domains" />
      ) : (
        <ul className="domain-list">
          {domains.data.map((d) => (
            <DomainItem key={d.hostname} projectId={projectId} domain={d} onChange={refresh} />
          ))}
        </ul>
      )}
    </section>
  );
}

function DomainItem({ projectId, domain, onChange }: { projectId: string; domain: SiteDomain; onChange: () => Promise<unknown> }) {
  const [message, setMessage] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const verify = useVerifySiteDomain(inlineError);
  const remove = useRemoveSiteDomain(inlineError);
  const toast = useToast();
  const status = STATUS[domain.status];

  function onVerify() {
    setMessage(null);
    verify.mutate(
      { projectId, data: { hostname: domain.hostname } },
      {
        onSuccess: async (res) => {
          if (res.message === 'verified') toast.success('Domain verified', 'The certificate is on its way.');
          else setMessage(res.message);
          await onChange();
        },
        onError: (err) => setMessage(errorMessage(err, 'Could not check DNS. Please try again.')),
      },
    );
  }

  function confirmRemove() {
    setRemoveError(null);
    remove.mutate(
      { projectId, data: { hostname: domain.hostname } },
      {
        onSuccess: async () => {
          toast.success('Domain removed', domain.hostname);
          setRemoving(false);
          await onChange();
        },
        onError: (err) => setRemoveError(errorMessage(err, 'Something went wrong. Please try again.')),
      },
    );
  }

  return (
    <li className="domain-item">
      <div className="domain-head">
        <div>
          <strong className="mono">{domain.hostname}</strong>{' '}
          <Pill tone={status.tone}>{status.label}</Pill>
          {domain.certificate_expires_at && <span className="muted"> · certificate until {formatDate(domain.certificate_expires_at)}</span>}
        </div>
        <div className="page-actions">
          {!domain.verified && (
            <button type="button" className="btn btn-primary" onClick={onVerify} disabled={verify.isPending}>
              {verify.isPending ? 'Verifying...' : 'Verify'}
            </button>
          )}
          <button type="button" className="btn btn-secondary danger-text" onClick={() => setRemoving(true)}>
            Remove
          </button>
        </div>
      </div>
      {!domain.verified && (
        <div>
          <p className="muted">Publish one of these records at your DNS provider:</p>
          <ul className="dns-records">
            {domain.records.map((r) => (
              <li key={`${r.type}-${r.value}`} className="uid">
                <strong>{r.type}</strong> <code>{r.host}</code> → <code>{r.value}</code>
                <CopyButton value={r.value} label={`${r.type} value`} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {message && (
        <p className="form-error" role="alert">
          {message}
        </p>
      )}
      {domain.status === 'failed' && domain.error && <p className="muted">{domain.error} It is retried automatically.</p>}
      <ConfirmDialog
        open={removing}
        title="Remove domain"
        message={`The site stops answering at ${domain.hostname} and its certificate is deleted.`}
        confirmLabel="Remove"
        busyLabel="Removing..."
        danger
        busy={remove.isPending}
        error={removeError}
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(false)}
      />
    </li>
  );
}
