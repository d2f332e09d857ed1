// Every operation of the contract, classified once: a change a developer makes (logged, with its
// summary), a read (logged nowhere; this API lists with POST too), or a call that is not the
// account's activity (made with a project's key by an app and its end users, or by someone who
// proved nothing about the account). Typed by OperationId, and activity.classification.test.ts
// checks openapi.yaml: a new operation must be placed here before it builds.
import type { OperationId } from '../../generated/operations';
import type { AccountRow } from '../accounts/accounts.tables';
import type { ProjectRow } from '../projects/projects.tables';
import type { ActivityNotes } from './activity.context';

/** What a summary may read: the call as validated, and the project it named (when owned). */
export interface ActivityCall {
  body: Record<string, unknown>;
  params: Record<string, unknown>;
  account?: AccountRow;
  project?: ProjectRow;
  notes: ActivityNotes;
}

/** A readable summary; null when the call turned out to change nothing. */
export type Summary = (call: ActivityCall) => string | null;

export type Classification = { kind: 'changes'; summary: Summary } | { kind: 'reads' } | { kind: 'not-account-activity'; why: string };

const changes = (summary: Summary | string): Classification => ({ kind: 'changes', summary: typeof summary === 'string' ? () => summary : summary });
const reads: Classification = { kind: 'reads' };
const appSide: Classification = { kind: 'not-account-activity', why: "made with a project's key, by an app or its end users" };
const anonymous: Classification = { kind: 'not-account-activity', why: 'anyone may send it; nobody proved to be the account' };

/** A caller's text in a summary: one line, not too long. */
function text(value: unknown, max = 80): string {
  const s = String(value ?? '').replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const projectName = (c: ActivityCall) => (c.project ? `"${text(c.project.name)}" (${c.project.subdomain})` : 'a project');
const table = (c: ActivityCall) => `"${text(c.params.table ?? c.body.table ?? c.body.name, 63)}"`;
const columnName = (column: unknown) => text(typeof column === 'object' && column !== null ? (column as { name?: unknown }).name : column, 63);
const user = (c: ActivityCall) => text(c.body.email ?? c.body.user_id);

function mfaSummary(c: ActivityCall): string {
  const action = c.body.action ?? (c.account?.mfaEnabled ? 'disable' : c.body.mfa_code ? 'enable' : 'enroll');
  if (action === 'enroll') return 'Started setting up two-factor authentication';
  return action === 'enable' ? 'Turned on two-factor authentication' : 'Turned off two-factor authentication';
}

export const operationActivity: Record<OperationId, Classification> = {
  getHealth: reads,

  // The account's own sign-in related actions: the public ones name their account on success
  // (activityActor in accounts.service.ts); a login answered "mfa" is not a sign-in yet.
  registerAccount: changes('Created the account'),
  loginAccount: changes('Signed in'),
  verifyMfaCode: changes('Signed in with a two-factor code'),
  verifyMfaCodeAlias: changes('Signed in with a two-factor code'),
  resetPassword: changes('Reset the password with an emailed link'),
  confirmEmail: changes('Verified the email address'),
  confirmEmailLink: changes('Verified the email address'),
  toggleMfa: changes(mfaSummary),
  changePassword: changes('Changed the password'),
  sendEmailVerification: changes('Asked for an email verification link'),
  getAccountDetails: changes((c) => (c.body.name === undefined ? null : `Changed the profile name to "${text(c.body.name)}"`)),
  forgotPassword: anonymous,
  forgotPasswordAlias: anonymous,
  verifyToken: reads,
  verifyTokenAlias: reads,
  getEmailVerified: reads,
  getDeveloper: reads,

  createOrder: changes((c) => `Started a payment for the ${text(c.body.plan)} plan`),
  startPayment: changes((c) => `Started a payment for the ${text(c.body.plan)} plan`),
  verifyPayment: changes('Completed a payment'),
  completeTestPayment: changes('Completed a test payment'),
  razorpayWebhook: { kind: 'not-account-activity', why: 'sent by Razorpay, signed with the webhook secret: no account makes it' },
  listPlans: reads,
  getBilling: reads,

  listProjects: reads,
  getAccountUsage: reads,
  listAccountErrors: reads,
  getProjectUsage: reads,
  checkSubdomain: reads,
  createProject: changes((c) => `Created project "${text(c.body.projectName)}" (${text(c.body.subdomain)})`),
  createProjectAlias: changes((c) => `Created project "${text(c.body.projectName)}" (${text(c.body.subdomain)})`),
  getProjectDetails: reads,
  deleteProject: changes((c) => `Deleted project ${projectName(c)}`),
  exportProject: changes((c) => `Exported project ${projectName(c)} to an archive`),
  getBucketDetails: reads,
  getAuthenticationDetails: reads,
  getProjectApiKeys: reads,
  // Each key under its one name: the former "bucket" and "authentication" keys are the secret and publishable ones.
  rotateProjectKey: changes((c) => `Rotated the ${(['bucket', 'secret'] as unknown[]).includes(c.body.key) ? 'secret' : 'publishable'} key`),

  listAccountActivity: reads,
  listProjectActivity: reads,
  listProjectErrors: reads,

  uploadObject: changes((c) => (c.notes.file !== undefined ? `Uploaded file "${text(c.notes.file)}"` : 'Uploaded a file')),
  listObjects: reads,
  deleteObjects: changes((c) => `Deleted ${plural(Number(c.notes.deleted ?? (c.body.file_ids as unknown[] | undefined)?.length ?? 0), 'file')}`),
  downloadObject: reads,
  bucketListObjects: appSide,
  bucketUploadObject: appSide,
  bucketDownloadObject: appSide,
  bucketDeleteObject: appSide,
  createObjectSignedLink: appSide,
  revokeObjectSignedLink: appSide,
  downloadSignedObject: anonymous,
  listStorageRules: reads,
  setStorageRule: changes(
    (c) =>
      `Set the access rule of ${c.body.folder ? `folder "${text(c.body.folder, 255)}"` : 'the bucket root'} to ${text(c.body.access, 20)}` +
      (c.body.public === true ? ', public' : c.body.public === false ? ', not public' : ''),
  ),
  deleteStorageRule: changes((c) => `Removed the access rule of ${c.body.folder ? `folder "${text(c.body.folder, 255)}"` : 'the bucket root'}`),
  listSignedLinks: reads,
  createSignedLink: changes((c) => (c.notes.file !== undefined ? `Created a signed link to "${text(c.notes.file)}"` : 'Created a signed link')),
  revokeSignedLink: changes('Revoked a signed link'),
  shareObject: changes((c) => (c.notes.file !== undefined ? `Shared file "${text(c.notes.file)}"` : 'Shared a file')),
  unshareObject: changes((c) => (c.notes.file !== undefined ? `Stopped sharing file "${text(c.notes.file)}"` : 'Stopped sharing a file')),
  createConsoleSignedUrl: reads,
  bucketShareObject: appSide,
  bucketUnshareObject: appSide,
  createSignedUrl: appSide,
  createSignedUrls: appSide,
  downloadSignedUrl: anonymous,
  downloadPublicObject: anonymous,

  listAuthUsers: reads,
  addAuthUser: changes((c) => `Added user ${user(c)}`),
  deleteAuthUser: changes((c) => `Deleted user ${user(c)}`),
  resetAuthUserPassword: changes((c) => `Sent a password reset mail to user ${user(c)}`),
  updateAuthSettings: changes((c) =>
    ['allowed_origins', 'site_url', 'block_common_passwords'].some((k) => c.body[k] !== undefined) ? 'Changed the authentication settings' : null,
  ),
  endUserSignUp: appSide,
  endUserSignIn: appSide,
  endUserRefresh: appSide,
  endUserSignOut: appSide,
  endUserGetCurrent: appSide,
  endUserRequestPasswordReset: appSide,
  endUserResetPassword: appSide,
  endUserSendVerification: appSide,
  endUserConfirmEmail: appSide,

  uploadSiteZip: changes((c) => (c.notes.type !== undefined ? `Deployed a ${text(c.notes.type, 20)} site` : 'Deployed a site')),
  activateDeployment: changes('Made an earlier deployment live'),
  createManifestDeployment: changes((c) => (c.notes.type !== undefined ? `Started a ${text(c.notes.type, 20)} deployment from a manifest` : 'Started a deployment from a manifest')),
  uploadDeploymentFiles: changes('Uploaded files for a deployment'),
  finishDeployment: changes('Deployed a site (instant redeploy)'),
  getContainerStats: reads,
  listDeployments: reads,
  getDeploymentLogs: reads,
  streamDeploymentLog: reads,
  getBuildSettings: reads,
  setBuildSettings: changes('Changed the build settings of the site'),
  getSiteTraffic: reads,
  listSiteDomains: reads,
  addSiteDomain: changes((c) => `Added custom domain ${text(c.body.hostname)}`),
  verifySiteDomain: changes((c) => `Checked the DNS of custom domain ${text(c.body.hostname)}`),
  removeSiteDomain: changes((c) => `Removed custom domain ${text(c.body.hostname)}`),
  listSites: reads,
  listSiteEnv: reads,
  setSiteEnv: changes((c) => `Set site variables ${text(Array.isArray(c.body.variables) ? c.body.variables.map((v: { name?: unknown }) => v?.name).join(', ') : '', 120)}`),
  unsetSiteEnv: changes((c) => `Removed site variables ${text(Array.isArray(c.body.names) ? c.body.names.join(', ') : '', 120)}`),
  unpublishSite: changes((c) => `Unpublished the site of ${projectName(c)}`),
  deleteSite: changes((c) => `Deleted the site of ${projectName(c)}`),

  addSmtpDomain: changes((c) => `Added mail domain ${text(c.body.domain)}`),
  verifySmtpDomain: changes((c) => `Checked the DNS of mail domain ${text(c.body.domain)}`),
  removeSmtpDomain: changes((c) => `Removed mail domain ${text(c.body.domain)}`),
  addSmtpAccount: changes((c) => `Added mailbox ${text(c.body.email)}@${text(c.body.domain)}`),
  removeSmtpAccount: changes((c) => `Removed mailbox ${text(c.body.email)}`),
  changeSmtpAccountPassword: changes((c) => `Changed the password of mailbox ${text(c.body.email)}`),
  getSmtpDomainDetails: reads,
  listSmtpAccounts: reads,

  listDbTables: reads,
  createDbTable: changes((c) => `Created table ${table(c)}`),
  dropDbTable: changes((c) => `Dropped table ${table(c)}`),
  addDbColumn: changes((c) => `Added column "${columnName(c.body.column)}" to ${table(c)}`),
  renameDbColumn: changes((c) => `Renamed column "${columnName(c.body.column)}" of ${table(c)} to "${text(c.body.new_name, 63)}"`),
  dropDbColumn: changes((c) => `Dropped column "${columnName(c.body.column)}" of ${table(c)}`),
  setDbTableAccess: changes((c) => `Changed who may use ${table(c)}`),
  // The SQL box runs anything, a SELECT or a DROP: counted as a change. The text is not kept.
  runDbSql: changes('Ran SQL in the console'),
  consoleSelectDbRows: reads,
  consoleInsertDbRows: changes((c) => `Inserted ${plural((c.body.rows as unknown[] | undefined)?.length ?? 0, 'row')} into ${table(c)}`),
  consoleUpdateDbRows: changes((c) => `Updated rows of ${table(c)}`),
  consoleDeleteDbRows: changes((c) => `Deleted rows from ${table(c)}`),
  selectDbRows: appSide,
  insertDbRows: appSide,
  updateDbRows: appSide,
  deleteDbRows: appSide,
  subscribeDbChanges: appSide,

  submitContactMessage: anonymous,
};
