// The mail page's texts, ports and small rules, shared by its parts.
import { getGetSmtpDomainDetailsQueryKey, getListSmtpAccountsQueryKey } from '../../api/generated/mail/mail';
import { ApiError } from '../../api/http';
import { allOf } from '../../api/queryClient';
import { formatSize } from '../../lib/format';

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

/** The project's mail domain, whatever the body it was asked with. */
export const domainDetailsKey = (projectId: string) => allOf(getGetSmtpDomainDetailsQueryKey(projectId));
/** The mailboxes of every domain of the project. */
export const mailboxesKey = (projectId: string) => allOf(getListSmtpAccountsQueryKey(projectId));

export function quotaSize(bytes: number): string {
  return formatSize(bytes);
}

/** "Failed to create account: <server message>", the title alone, or a generic line when offline. */
export function mailboxFailure(title: string, err: unknown): string {
  return err instanceof ApiError && err.serverMessage ? `${title}: ${err.serverMessage}` : err instanceof ApiError && err.status > 0 ? title : MAIL_MESSAGES.generic;
}
