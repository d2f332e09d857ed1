// The project's errors panel hears what went wrong on the account events channel and keeps
// each event of a project as a row.
import type { AccountEvent, Severity } from '../../platform/account-events';
import type { ProjectErrorKind } from './activity.tables';

/**
 * Severity by how much of the project is down:
 * - a crashed runtime is high: the site answers errors until the process is back;
 * - DNS that stopped verifying is high: mail to the domain stops arriving, and its own is refused or lands in spam;
 * - a failed deploy is medium: nothing new went live, but the deployment that was live still serves;
 * - a quota at 100 % is high (the calls that need more are refused), at 80 % low (a warning).
 */
export function severityOf(event: AccountEvent): Severity {
  switch (event.type) {
    case 'runtime_crashed':
    case 'dns_unverified':
      return 'high';
    case 'deploy_failed':
      return 'medium';
    case 'quota_passed':
      return event.percent >= 100 ? 'high' : 'low';
    default:
      return 'low';
  }
}

/** The row an event leaves in its project's errors; undefined for events that are not a project's error. */
export function projectErrorOf(event: AccountEvent): { projectId: string; kind: ProjectErrorKind; severity: Severity; message: string } | undefined {
  if (event.type === 'mfa_disabled') return undefined;
  // An account-wide quota (projects per account) belongs to no project's panel.
  if (!event.projectId) return undefined;
  return { projectId: event.projectId, kind: event.type, severity: severityOf(event), message: event.message.slice(0, 2000) };
}
