import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useRemoveSmtpDomain, useVerifySmtpDomain } from '../../api/generated/mail/mail';
import type { SmtpDomainDetails } from '../../api/generated/model';
import { ApiError, errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormError } from '../../components/FormError';
import { Icon } from '../../components/Icon';
import { Pill } from '../../components/StatusBadge';
import { useToast } from '../../components/Toast';
import { formatDate } from '../../lib/format';
import { domainDetailsKey, MAIL_MESSAGES, mailboxesKey } from './mail';

/** The project's mail domain: its state, Verify, Webmail and Remove (with its confirmation). */
export function DomainCard({ projectId, domain, details }: { projectId: string; domain: string; details: SmtpDomainDetails }) {
  const [verifyMessage, setVerifyMessage] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const verify = useVerifySmtpDomain(inlineError);
  const removeDomain = useRemoveSmtpDomain(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();
  const webmail = details.webmail_url;

  function onVerify() {
    setVerifyMessage(null);
    verify.mutate(
      { projectId, data: { domain } },
      {
        onSuccess: async (res) => {
          if (res.message === 'verified') {
            toast.success('Domain verified', domain);
            await queryClient.invalidateQueries({ queryKey: domainDetailsKey(projectId) });
          } else setVerifyMessage(res.message || MAIL_MESSAGES.verifyFailed);
        },
        onError: (err) =>
          setVerifyMessage(
            err instanceof ApiError && err.status > 0 ? (err.serverMessage ?? MAIL_MESSAGES.verifyFailed) : MAIL_MESSAGES.verifyError,
          ),
      },
    );
  }

  function confirmRemove() {
    setRemoveError(null);
    removeDomain.mutate(
      { projectId, data: { domain } },
      {
        onSuccess: async () => {
          toast.success('Domain removed', domain);
          setRemoving(false);
          setVerifyMessage(null);
          await queryClient.invalidateQueries({ queryKey: domainDetailsKey(projectId) });
          queryClient.removeQueries({ queryKey: mailboxesKey(projectId) });
        },
        onError: (err) => setRemoveError(errorMessage(err, MAIL_MESSAGES.somethingWrong)),
      },
    );
  }

  return (
    <section className="card panel domain-card" aria-labelledby="domain-title">
      <div className="domain-head">
        <div>
          <h2 id="domain-title" className="domain-name">
            {domain}
          </h2>
          <p className="muted">
            Added {formatDate(details.date)} ·{' '}
            {details.verified ? <Pill tone="green">verified</Pill> : <Pill tone="yellow">unverified</Pill>}
          </p>
        </div>
        <div className="page-actions">
          {!details.verified && (
            <button type="button" className="btn btn-primary" onClick={onVerify} disabled={verify.isPending}>
              <Icon name="check" size={16} /> {verify.isPending ? 'Verifying...' : 'Verify'}
            </button>
          )}
          {webmail && (
            <a className="btn btn-secondary" href={webmail} target="_blank" rel="noreferrer">
              <Icon name="mail" size={16} /> Webmail
            </a>
          )}
          <button
            type="button"
            className="btn btn-secondary danger-text"
            onClick={() => {
              setRemoveError(null);
              setRemoving(true);
            }}
          >
            <Icon name="trash" size={16} /> Remove
          </button>
        </div>
      </div>
      <FormError message={verifyMessage} />
      <ConfirmDialog
        open={removing}
        title="Remove domain"
        danger
        confirmLabel="Remove domain"
        busyLabel="Removing..."
        busy={removeDomain.isPending}
        error={removeError}
        message={
          <p>
            Remove <strong>{domain}</strong>? Its mailboxes and their mail are deleted and sending from it stops.
          </p>
        }
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(false)}
      />
    </section>
  );
}
