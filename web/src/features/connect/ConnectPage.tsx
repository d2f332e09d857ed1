// /project/:projectId/connect: everything a first app needs on one screen (the API URL, the
// publishable key and whole programs that use them), as Supabase's "Connect" and Firebase's config
// snippet do. Only the publishable key is shown: it is safe in a web page; the secret key stays on
// the API Keys screen with its warning.
import { Link } from 'react-router-dom';
import { useGetProjectApiKeys } from '../../api/generated/projects/projects';
import { CopyButton } from '../../components/CopyButton';
import { PageHeader } from '../../components/PageHeader';
import { ErrorState } from '../../components/States';
import { usePageTitle } from '../../lib/usePageTitle';
import { useProject } from '../console/ProjectLayout';
import { EXAMPLE_COLUMN, EXAMPLE_FOLDER, EXAMPLE_TABLE, apiUrl, curlSnippet, fetchSnippet, sdkSnippet } from './snippets';

function Value({ label, value, testId }: { label: string; value: string | undefined; testId: string }) {
  return (
    <div className="key-row">
      <dt>{label}</dt>
      <dd>
        {value ? <code className="key-value" data-testid={testId}>{value}</code> : <span className="skeleton" aria-label={`Loading ${label}`} />}
        <span className="key-actions">{value && <CopyButton value={value} label={label} />}</span>
      </dd>
    </div>
  );
}

function Snippet({ title, code, name }: { title: string; code: string; name: string }) {
  return (
    <section className="snippet" aria-label={title}>
      <div className="snippet-head">
        <h3 className="section-label">{title}</h3>
        <CopyButton value={code} label={`${name} snippet`} />
      </div>
      <pre className="log-box snippet-code" data-testid={`snippet-${name}`}>
        {code}
      </pre>
    </section>
  );
}

export default function ConnectPage() {
  usePageTitle('Connect');
  const { projectId } = useProject();
  const keys = useGetProjectApiKeys(projectId);
  const origin = window.location.origin;
  const key = keys.data?.publishable_key;
  const base = `/project/${encodeURIComponent(projectId)}`;
  const values = { url: origin, publishableKey: key ?? '<publishable key>' };

  return (
    <div className="console-page">
      <PageHeader title="Connect" description="The address and key your app uses to reach this project, and a first program that uses them." />
      {keys.isError && <ErrorState title="Could not load the project's keys" error={keys.error} onRetry={() => keys.refetch()} />}
      <dl className="card key-list">
        <Value label="API URL" value={apiUrl(origin)} testId="connect-api-url" />
        <Value label="Publishable key" value={key} testId="connect-publishable-key" />
      </dl>
      <p className="muted">
        The publishable key is safe in a web page: what it may do is decided by the access rules of each table and folder. Your
        servers can use the secret key instead; it is on the <Link to={`${base}/api-keys`}>API Keys</Link> screen.
      </p>
      <p className="muted">
        The programs below sign an end user up, add a row to the <code>{EXAMPLE_TABLE}</code> table (a text column{' '}
        <code>{EXAMPLE_COLUMN}</code>) and upload a file into the <code>{EXAMPLE_FOLDER}</code> folder. Create the table on the{' '}
        <Link to={`${base}/database`}>Database</Link> screen with the app access &ldquo;Owner only&rdquo; or &ldquo;Signed-in users&rdquo;, and give the
        folder the rule &ldquo;Signed-in users&rdquo; or &ldquo;Owner only&rdquo; on the <Link to={`${base}/storage`}>Storage</Link> screen. A page on another origin
        must be listed in the allowed origins (<Link to={`${base}/authentication`}>Authentication</Link> settings).
      </p>
      <Snippet title="JavaScript SDK (@hostbase/client)" name="SDK" code={sdkSnippet(values)} />
      <Snippet title="fetch" name="fetch" code={fetchSnippet(values)} />
      <Snippet title="curl" name="curl" code={curlSnippet(values)} />
    </div>
  );
}
