import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useListSmtpAccounts, useRemoveSmtpAccount } from '../../api/generated/mail/mail';
import type { EmailAccount } from '../../api/generated/model';
import { inlineError } from '../../api/queryClient';
import { ConfirmDialog, useConfirmTarget } from '../../components/ConfirmDialog';
import { Empty, QueryView } from '../../components/States';
import { useToast } from '../../components/Toast';
import { AddMailboxForm } from './AddMailboxForm';
import { MailboxItem } from './MailboxItem';
import { MAIL_MESSAGES, mailboxesKey, mailboxFailure } from './mail';

/** The mailboxes of a verified domain: the list (one edited at a time), the add form, the remove confirmation. */
export function MailboxList({ projectId, domain }: { projectId: string; domain: string }) {
  const accounts = useListSmtpAccounts(projectId, { domain });
  const [editing, setEditing] = useState<string | null>(null);
  const toRemove = useConfirmTarget<EmailAccount>();
  const remove = useRemoveSmtpAccount(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();
  const refresh = () => queryClient.invalidateQueries({ queryKey: mailboxesKey(projectId) });

  const confirmRemove = () =>
    toRemove.confirm((account) =>
      remove.mutate(
        { projectId, data: { email: account.email } },
        toRemove.settle(
          async () => {
            toast.success('Mailbox removed', account.email);
            await refresh();
          },
          (err) => mailboxFailure(MAIL_MESSAGES.deleteAccount, err),
        ),
      ),
    );

  return (
    <section className="card panel" aria-labelledby="mailboxes-title">
      <h2 id="mailboxes-title" className="panel-title">Mailboxes</h2>
      <QueryView
        query={accounts}
        loading="Loading mailboxes..."
        errorTitle={MAIL_MESSAGES.fetchAccounts}
        isEmpty={(list) => list.length === 0}
        empty={<Empty icon="mail" title="No mailboxes yet">Create the first mailbox on {domain} below.</Empty>}
      >
        {(list) => (
          <ul className="mailbox-list">
            {list.map((a) => (
              <MailboxItem
                key={a.email}
                projectId={projectId}
                account={a}
                editing={editing === a.email}
                onEdit={() => setEditing(a.email)}
                onDone={() => setEditing(null)}
                onRemove={() => toRemove.open(a)}
              />
            ))}
          </ul>
        )}
      </QueryView>

      <AddMailboxForm projectId={projectId} domain={domain} existing={accounts.data?.map((a) => a.email) ?? []} onAdded={refresh} />

      <ConfirmDialog
        open={!!toRemove.target}
        title="Remove mailbox"
        danger
        confirmLabel="Remove"
        busyLabel="Removing..."
        busy={remove.isPending}
        error={toRemove.error}
        message={
          <p>
            Remove <strong>{toRemove.target?.email}</strong> and all of its mail? This cannot be undone.
          </p>
        }
        onConfirm={confirmRemove}
        onCancel={toRemove.close}
      />
    </section>
  );
}
