import { useState, type FormEvent } from 'react';
import { useChangeSmtpAccountPassword } from '../../api/generated/mail/mail';
import type { EmailAccount } from '../../api/generated/model';
import { inlineError } from '../../api/queryClient';
import { CopyButton } from '../../components/CopyButton';
import { TextField } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { Pill } from '../../components/StatusBadge';
import { useToast } from '../../components/Toast';
import { formatDate } from '../../lib/format';
import { validateMailboxPassword } from '../../lib/validation';
import { MAIL_MESSAGES, mailboxFailure, quotaSize } from './mail';

/** One mailbox: its address, quota and dates, and its change-password form when `editing`. */
export function MailboxItem({
  projectId,
  account,
  editing,
  onEdit,
  onDone,
  onRemove,
}: {
  projectId: string;
  account: EmailAccount;
  editing: boolean;
  onEdit: () => void;
  onDone: () => void;
  onRemove: () => void;
}) {
  const [newPassword, setNewPassword] = useState('');
  const [editError, setEditError] = useState<string | null>(null);
  const change = useChangeSmtpAccountPassword(inlineError);
  const toast = useToast();
  const email = account.email;

  function onChangePassword(e: FormEvent) {
    e.preventDefault();
    const bad = validateMailboxPassword(newPassword);
    if (bad) return setEditError(bad);
    setEditError(null);
    change.mutate(
      { projectId, data: { email, password: newPassword } },
      {
        onSuccess: () => {
          toast.success('Password changed', email);
          onDone();
          setNewPassword('');
        },
        onError: (err) => setEditError(mailboxFailure(MAIL_MESSAGES.changePassword, err)),
      },
    );
  }

  function startOrStop(start: boolean) {
    setNewPassword('');
    setEditError(null);
    if (start) onEdit();
    else onDone();
  }

  return (
    <li className="mailbox">
      <div className="mailbox-main">
        <span className="mailbox-email">{email}</span>
        <CopyButton value={email} label={email} />
        <Pill tone={account.active ? 'green' : 'gray'}>{account.active ? 'active' : 'unactive'}</Pill>
      </div>
      <div className="mailbox-meta muted">
        <span>Quota {quotaSize(account.quota)}</span>
        {account.used !== undefined && <span>Used {quotaSize(account.used)}</span>}
        <span>Created {formatDate(account.created)}</span>
      </div>
      {editing ? (
        <form className="form form-inline" onSubmit={onChangePassword}>
          <TextField
            label={`New password for ${email}`}
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
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => startOrStop(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <div className="row-actions">
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => startOrStop(true)}>
            <Icon name="lock" size={14} /> Change password
          </button>
          <button type="button" className="btn btn-ghost btn-sm danger-text" onClick={onRemove}>
            <Icon name="trash" size={14} /> Remove
          </button>
        </div>
      )}
    </li>
  );
}
