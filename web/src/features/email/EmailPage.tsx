import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  useAddSmtpAccount,
  useAddSmtpDomain,
  useChangeSmtpAccountPassword,
  useGetSmtpDomainDetails,
  useListSmtpAccounts,
  useRemoveSmtpAccount,
  useRemoveSmtpDomain,
  useVerifySmtpDomain,
} from '../../api/generated/smtp/smtp';
import type { EmailAccount, SmtpDomainDetails } from '../../api/generated/model';
import { ApiError, errorMessage } from '../../api/http';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyButton } from '../../components/CopyButton';
import { TextField } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { Empty, ErrorState, Loading } from '../../components/States';
import { Pill } from '../../components/StatusBadge';
import { useToast } from '../../components/Toast';
import { formatDate } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';
import { mailboxUsername, validateDomain, validateMailboxPassword, validateMailboxUsername } from '../../lib/validation';
import { useProject } from '../console/ProjectLayout';

export const MAIL_MESSAGES = {
  somethingWrong: 'Something went wrong',
  verifyFailed: 'Verification failed. Please try again.',
  verifyError: 'Error verifying the domain. Please try again.',
  fetchAccounts: 'Failed to fetch accounts',
  createAccount: 'Failed to create account',
  deleteAccount: 'Failed to delete account',
  changePassword: 'Failed to change password',
  generic: 'An error occurred',
} as const;

export const IMAP_PORT = 993;
export const SMTP_PORT = 465;

const detailsKey = (projectId: string) => [`/project/${projectId}/smtp/smtp_domain_details`];
const accountsKey = (projectId: string) => [`/project/${projectId}/smtp/accounts`];

export function quotaMb(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

function AddDomainForm({ projectId }: { projectId: string }) {
  const [domain, setDomain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddSmtpDomain();
  const queryClient = useQueryClient();
  const toast = useToast();

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const invalid = validateDomain(domain);
    if (invalid) return setError(invalid);
    setError(null);
    add.mutate(
      { projectId, data: { domain: domain.trim().toLowerCase() } },
      {
        onSuccess: async (res) => {
          if (res.message === 'added') {
            toast.success('Domain added', 'Add the DNS records below, then verify.');
            await queryClient.invalidateQueries({ queryKey: detailsKey(projectId) });
          } else setError(res.message || MAIL_MESSAGES.somethingWrong);
        },
        onError: (err) => setError(errorMessage(err, MAIL_MESSAGES.somethingWrong)),
      },
    );
  }

  return (
    <section className="card panel" aria-labelledby="add-domain-title">
      <h2 id="add-domain-title" className="panel-title">Add Domain</h2>
      <p className="muted">Send and receive mail as you@yourdomain. You can configure one custom domain per project.</p>
      <form className="form form-inline" onSubmit={onSubmit} noValidate>
        <TextField
          label="Domain name"
          placeholder="example.com"
          value={domain}
          onChange={(e) => {
            setDomain(e.target.value);
            setError(null);
          }}
          error={error}
          autoComplete="off"
          spellCheck={false}
        />
        <button type="submit" className="btn btn-primary" disabled={add.isPending}>
          {add.isPending ? 'Adding...' : 'Add Domain'}
        </button>
      </form>
    </section>
  );
}

function DnsRecords({ details }: { details: SmtpDomainDetails }) {
  const records = details.dnsRecords ?? [];
  return (
    <section className="card panel" aria-labelledby="dns-title">
      <h2 id="dns-title" className="panel-title">DNS records</h2>
      <p className="muted">Add these records at your DNS provider. DNS propagation can take up to 48 hours.</p>
      {records.length === 0 ? (
        <Empty icon="globe" title="No records to show" />
      ) : (
        <div className="table-scroll">
          <table className="table">
            <caption className="visually-hidden">DNS records</caption>
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Host</th>
                <th scope="col">Value</th>
                <th scope="col">Priority</th>
                <th scope="col">TTL</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {records.map((r, i) => (
                <tr key={`${r.type}-${r.host}-${i}`}>
                  <td data-label="Type">
                    <strong>{r.type}</strong>
                    {r.purpose && <span className="muted"> ({r.purpose})</span>}
                  </td>
                  <td data-label="Host">
                    <span className="uid">
                      <code>{r.host}</code>
                      <CopyButton value={r.host} label={`${r.type} host`} />
                    </span>
                  </td>
                  <td data-label="Value">
                    <span className="uid dns-value">
                      <code title={r.value}>{r.value}</code>
                      <CopyButton value={r.value} label={`${r.type} value`} />
                    </span>
                  </td>
                  <td data-label="Priority">{r.priority ?? '-'}</td>
                  <td data-label="TTL">{r.ttl}</td>
                  <td data-label="Status">
                    {r.verified === undefined ? (
                      <span className="muted">-</span>
                    ) : r.verified ? (
                      <Pill tone="green">found</Pill>
                    ) : (
                      <Pill tone="yellow">missing</Pill>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function ServerSettings({ host }: { host: string }) {
  const rows = [
    { label: 'IMAP server', value: host, extra: `Port ${IMAP_PORT} · SSL/TLS` },
    { label: 'SMTP server', value: host, extra: `Port ${SMTP_PORT} · SSL/TLS` },
  ];
  return (
    <section className="card panel" aria-labelledby="server-settings-title">
      <h2 id="server-settings-title" className="panel-title">Mail server settings</h2>
      <dl className="settings-list">
        {rows.map((r) => (
          <div key={r.label}>
            <dt>{r.label}</dt>
            <dd>
              <code>{r.value}</code> <CopyButton value={r.value} label={r.label} /> <span className="muted">{r.extra}</span>
            </dd>
          </div>
        ))}
        <div>
          <dt>Username</dt>
          <dd>Your full email address</dd>
        </div>
      </dl>
    </section>
  );
}

function Mailboxes({ projectId, domain }: { projectId: string; domain: string }) {
  const accounts = useListSmtpAccounts(projectId, { domain }, { query: { queryKey: [...accountsKey(projectId), domain] } });
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [newPassword, setNewPassword] = useState('');
  const [editError, setEditError] = useState<string | null>(null);
  const [toRemove, setToRemove] = useState<EmailAccount | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const add = useAddSmtpAccount();
  const remove = useRemoveSmtpAccount();
  const change = useChangeSmtpAccountPassword();
  const queryClient = useQueryClient();
  const toast = useToast();
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountsKey(projectId) });

  function failure(title: string, err: unknown): string {
    return err instanceof ApiError && err.serverMessage ? `${title}: ${err.serverMessage}` : err instanceof ApiError && err.status > 0 ? title : MAIL_MESSAGES.generic;
  }

  function onAdd(e: FormEvent) {
    e.preventDefault();
    const existing = accounts.data?.map((a) => a.email) ?? [];
    const bad = validateMailboxUsername(username, existing, domain) ?? validateMailboxPassword(password);
    if (bad) return setFormError(bad);
    setFormError(null);
    const user = mailboxUsername(username);
    add.mutate(
      { projectId, data: { email: user, domain, password } },
      {
        onSuccess: async () => {
          toast.success('Mailbox created', `${user}@${domain}`);
          setUsername('');
          setPassword('');
          await refresh();
        },
        onError: (err) => setFormError(failure(MAIL_MESSAGES.createAccount, err)),
      },
    );
  }

  function onChangePassword(e: FormEvent, email: string) {
    e.preventDefault();
    const bad = validateMailboxPassword(newPassword);
    if (bad) return setEditError(bad);
    setEditError(null);
    change.mutate(
      { projectId, data: { email, password: newPassword } },
      {
        onSuccess: () => {
          toast.success('Password changed', email);
          setEditing(null);
          setNewPassword('');
        },
        onError: (err) => setEditError(failure(MAIL_MESSAGES.changePassword, err)),
      },
    );
  }

  function confirmRemove() {
    if (!toRemove) return;
    setRemoveError(null);
    remove.mutate(
      { projectId, data: { email: toRemove.email } },
      {
        onSuccess: async () => {
          toast.success('Mailbox removed', toRemove.email);
          setToRemove(null);
          await refresh();
        },
        onError: (err) => setRemoveError(failure(MAIL_MESSAGES.deleteAccount, err)),
      },
    );
  }

  return (
    <section className="card panel" aria-labelledby="mailboxes-title">
      <h2 id="mailboxes-title" className="panel-title">Mailboxes</h2>
      {accounts.isPending ? (
        <Loading label="Loading mailboxes..." />
      ) : accounts.isError ? (
        <ErrorState title={MAIL_MESSAGES.fetchAccounts} error={accounts.error} onRetry={() => accounts.refetch()} />
      ) : accounts.data.length === 0 ? (
        <Empty icon="mail" title="No mailboxes yet">Create the first mailbox on {domain} below.</Empty>
      ) : (
        <ul className="mailbox-list">
          {accounts.data.map((a) => (
            <li key={a.email} className="mailbox">
              <div className="mailbox-main">
                <span className="mailbox-email">{a.email}</span>
                <CopyButton value={a.email} label={a.email} />
                <Pill tone={a.active ? 'green' : 'gray'}>{a.active ? 'active' : 'unactive'}</Pill>
              </div>
              <div className="mailbox-meta muted">
                <span>Quota {quotaMb(a.quota)}</span>
                {a.used !== undefined && <span>Used {quotaMb(a.used)}</span>}
                <span>Created {formatDate(a.created)}</span>
              </div>
              {editing === a.email ? (
                <form className="form form-inline" onSubmit={(e) => onChangePassword(e, a.email)}>
                  <TextField
                    label={`New password for ${a.email}`}
                    type="password"
                    autoComplete="new-password"
                    value={newPassword}
                    onChange={(e) => setNewPassword(e.target.value)}
                    error={editError}
                    autoFocus
                  />
                  <button type="submit" className="btn btn-primary btn-sm" disabled={change.isPending || !newPassword}>
                    {change.isPending ? 'Saving...' : 'Save'}
                  </button>
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    onClick={() => {
                      setEditing(null);
                      setNewPassword('');
                      setEditError(null);
                    }}
                  >
                    Cancel
                  </button>
                </form>
              ) : (
                <div className="row-actions">
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm"
                    onClick={() => {
                      setEditing(a.email);
                      setNewPassword('');
                      setEditError(null);
                    }}
                  >
                    <Icon name="lock" size={14} /> Change password
                  </button>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm danger-text"
                    onClick={() => {
                      setRemoveError(null);
                      setToRemove(a);
                    }}
                  >
                    <Icon name="trash" size={14} /> Remove
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}

      <form className="form add-mailbox" onSubmit={onAdd} noValidate aria-labelledby="add-mailbox-title">
        <h3 id="add-mailbox-title">Add mailbox</h3>
        <div className="form-grid">
          <div className="field">
            <label htmlFor="mailbox-username">Username</label>
            <div className="input-suffix">
              <input
                id="mailbox-username"
                className="input"
                value={username}
                onChange={(e) => {
                  setUsername(e.target.value);
                  setFormError(null);
                }}
                autoComplete="off"
                spellCheck={false}
              />
              <span className="suffix">@{domain}</span>
            </div>
          </div>
          <TextField
            label="Password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              setFormError(null);
            }}
            hint="At least 8 characters with upper and lower case letters, a number and one of ! @ # $ % ^ & *"
          />
        </div>
        {formError && (
          <p className="form-error" role="alert">
            {formError}
          </p>
        )}
        <button type="submit" className="btn btn-primary" disabled={!username.trim() || !password || add.isPending}>
          {add.isPending ? 'Creating...' : 'Create Account'}
        </button>
      </form>

      <ConfirmDialog
        open={!!toRemove}
        title="Remove mailbox"
        danger
        confirmLabel="Remove"
        busyLabel="Removing..."
        busy={remove.isPending}
        error={removeError}
        message={
          <p>
            Remove <strong>{toRemove?.email}</strong> and all of its mail? This cannot be undone.
          </p>
        }
        onConfirm={confirmRemove}
        onCancel={() => setToRemove(null)}
      />
    </section>
  );
}

export default function EmailPage() {
  usePageTitle('Email');
  const { projectId } = useProject();
  const details = useGetSmtpDomainDetails(projectId, { project_id: projectId }, { query: { queryKey: detailsKey(projectId) } });
  const [verifyMessage, setVerifyMessage] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const verify = useVerifySmtpDomain();
  const removeDomain = useRemoveSmtpDomain();
  const queryClient = useQueryClient();
  const toast = useToast();

  const d = details.data;
  const domain = d?.domain ?? null;

  function onVerify() {
    if (!domain) return;
    setVerifyMessage(null);
    verify.mutate(
      { projectId, data: { domain } },
      {
        onSuccess: async (res) => {
          if (res.message === 'verified') {
            toast.success('Domain verified', domain);
            await queryClient.invalidateQueries({ queryKey: detailsKey(projectId) });
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
    if (!domain) return;
    setRemoveError(null);
    removeDomain.mutate(
      { projectId, data: { domain } },
      {
        onSuccess: async () => {
          toast.success('Domain removed', domain);
          setRemoving(false);
          setVerifyMessage(null);
          await queryClient.invalidateQueries({ queryKey: detailsKey(projectId) });
          queryClient.removeQueries({ queryKey: accountsKey(projectId) });
        },
        onError: (err) => setRemoveError(errorMessage(err, MAIL_MESSAGES.somethingWrong)),
      },
    );
  }

  const mx = d?.dnsRecords?.find((r) => r.type.toUpperCase() === 'MX')?.value;
  const mailHost = (mx ?? (domain ? `mail.${domain}` : '')).replace(/\.$/, '');
  const webmail = d?.webmail_url;

  return (
    <div className="console-page">
      <PageHeader title="Email" description="Hosted SMTP and IMAP for one custom sending domain." />
      {details.isPending ? (
        <Loading label="Loading the mail domain..." />
      ) : details.isError ? (
        <ErrorState title="Could not load the mail domain" error={details.error} onRetry={() => details.refetch()} />
      ) : !domain ? (
        <AddDomainForm projectId={projectId} />
      ) : (
        <>
          <section className="card panel domain-card" aria-labelledby="domain-title">
            <div className="domain-head">
              <div>
                <h2 id="domain-title" className="domain-name">
                  {domain}
                </h2>
                <p className="muted">
                  Added {formatDate(d?.date)} ·{' '}
                  {d?.verified ? <Pill tone="green">verified</Pill> : <Pill tone="yellow">unverified</Pill>}
                </p>
              </div>
              <div className="page-actions">
                {!d?.verified && (
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
            {verifyMessage && (
              <p className="form-error" role="alert">
                {verifyMessage}
              </p>
            )}
          </section>
          <DnsRecords details={d!} />
          {d?.verified && (
            <>
              <Mailboxes projectId={projectId} domain={domain} />
              <ServerSettings host={mailHost} />
            </>
          )}
        </>
      )}
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
    </div>
  );
}
