// API Keys: the project's identifiers and its two app keys, each under one name (publishable and
// secret), with rotation.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import {
  getGetAuthenticationDetailsQueryKey,
  getGetBucketDetailsQueryKey,
  getGetProjectApiKeysQueryKey,
  useGetBucketDetails,
  useGetProjectApiKeys,
  useRotateProjectKey,
} from '../../api/generated/projects/projects';
import type { RotateProjectKeyBodyKey } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { CopyButton } from '../../components/CopyButton';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { PageHeader } from '../../components/PageHeader';
import { ErrorState } from '../../components/States';
import { useToast } from '../../components/Toast';
import { FormError } from '../../components/FormError';
import { usePageTitle } from '../../lib/usePageTitle';
import { useProject } from '../console/ProjectLayout';

interface Row {
  label: string;
  value: string | undefined;
  secret?: boolean;
  loading?: boolean;
  /** A line under the value: where the key may be used. */
  note?: string;
}

function mask(v: string) {
  return v.length <= 8 ? '••••••••' : `${v.slice(0, 4)}${'•'.repeat(12)}${v.slice(-4)}`;
}

function KeyRow({ row }: { row: Row }) {
  const [shown, setShown] = useState(false);
  const toast = useToast();
  const value = row.value ?? '';
  return (
    <div className="key-row">
      <dt>{row.label}</dt>
      <dd>
        {row.loading ? (
          <span className="skeleton" aria-label={`Loading ${row.label}`} />
        ) : (
          <code className="key-value">{row.secret && !shown ? mask(value) : value || 'N/A'}</code>
        )}
        <span className="key-actions">
          {row.secret && !row.loading && value && (
            <button
              type="button"
              className="icon-btn"
              aria-label={shown ? `Hide ${row.label}` : `Show ${row.label}`}
              aria-pressed={shown}
              onClick={() => setShown((s) => !s)}
            >
              <Icon name={shown ? 'eyeOff' : 'eye'} size={16} />
            </button>
          )}
          {!row.loading && value && (
            <CopyButton
              value={value}
              label={row.label}
              onCopied={(ok) => {
                if (!ok) toast.error('Could not copy to the clipboard');
              }}
            />
          )}
        </span>
      </dd>
      {row.note && <dd className={`key-note${row.secret ? ' is-secret' : ''}`}>{row.note}</dd>}
    </div>
  );
}

const KEY_CHOICES: { key: RotateProjectKeyBodyKey; label: string; help: string }[] = [
  { key: 'secret', label: 'Secret key', help: 'Used by your servers, with full access to files and rows.' },
  { key: 'publishable', label: 'Publishable key', help: 'Used by your web pages and apps, under the access rules.' },
];

function RotateKeyModal({ open, onClose, projectId }: { open: boolean; onClose: () => void; projectId: string }) {
  const [choice, setChoice] = useState<RotateProjectKeyBodyKey>('secret');
  const [error, setError] = useState<string | null>(null);
  const [newKey, setNewKey] = useState<string | null>(null);
  const rotate = useRotateProjectKey(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();

  function close() {
    setError(null);
    setNewKey(null);
    onClose();
  }

  function submit() {
    setError(null);
    rotate.mutate(
      { projectId, data: { key: choice } },
      {
        onSuccess: async (res) => {
          setNewKey(res.api_key);
          toast.success('New key created', 'The old key stopped working.');
          await Promise.all([
            // The same keys are also served under their former names (bucket and authentication details).
            queryClient.invalidateQueries({
              queryKey: choice === 'secret' ? getGetBucketDetailsQueryKey(projectId) : getGetAuthenticationDetailsQueryKey(projectId),
            }),
            queryClient.invalidateQueries({ queryKey: getGetProjectApiKeysQueryKey(projectId) }),
          ]);
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  }

  const chosen = KEY_CHOICES.find((c) => c.key === choice)!;
  return (
    <Modal
      open={open}
      onClose={close}
      busy={rotate.isPending}
      title="Create New Key"
      footer={
        newKey ? (
          <button type="button" className="btn btn-primary" onClick={close}>
            Done
          </button>
        ) : (
          <>
            <button type="button" className="btn btn-secondary" onClick={close} disabled={rotate.isPending}>
              Cancel
            </button>
            <button type="button" className="btn btn-danger" onClick={submit} disabled={rotate.isPending}>
              {rotate.isPending ? 'Generating...' : 'Generate key'}
            </button>
          </>
        )
      }
    >
      {newKey ? (
        <div className="form">
          <p role="status">
            Your new <strong>{chosen.label}</strong> is ready. Update your app with it now.
          </p>
          <div className="key-new">
            <code className="key-value">{newKey}</code>
            <CopyButton value={newKey} label={`new ${chosen.label}`} />
          </div>
        </div>
      ) : (
        <div className="form">
          <fieldset className="radio-cards">
            <legend>Which key?</legend>
            {KEY_CHOICES.map((c) => (
              <label key={c.key} className={`radio-card${choice === c.key ? ' is-checked' : ''}`}>
                <input type="radio" name="key" value={c.key} checked={choice === c.key} onChange={() => setChoice(c.key)} />
                <span>
                  <strong>{c.label}</strong>
                  <span className="muted">{c.help}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <p className="warning-note">
            <Icon name="alert" size={16} /> The current {chosen.label} stops working as soon as the new one is created.
          </p>
          <FormError message={error} />
        </div>
      )}
    </Modal>
  );
}

export default function ApiKeysPage() {
  usePageTitle('API Keys');
  const { projectId, project } = useProject();
  const bucket = useGetBucketDetails(projectId);
  const appKeys = useGetProjectApiKeys(projectId);
  const [rotating, setRotating] = useState(false);

  // Each key under one name only: the former "bucket" and "authentication" API keys are these two.
  const rows: Row[] = [
    { label: 'Project ID', value: projectId },
    { label: 'Domain', value: project.domain },
    { label: 'Bucket ID', value: bucket.data?.bucketId, loading: bucket.isPending },
    {
      label: 'Publishable key',
      value: appKeys.data?.publishable_key,
      loading: appKeys.isPending,
      note: 'Safe in a web page: its calls follow the access rules of each table and folder.',
    },
    {
      label: 'Secret key',
      value: appKeys.data?.secret_key,
      secret: true,
      loading: appKeys.isPending,
      note: 'Keep this secret: for your servers only. It bypasses the access rules.',
    },
  ];

  return (
    <div className="console-page">
      <PageHeader
        title="API Keys"
        description={
          <>
            Use these values to connect your app to this project (the <Link to={`/project/${encodeURIComponent(projectId)}/connect`}>Connect</Link>{' '}
            screen has them with ready-made snippets).
          </>
        }
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setRotating(true)}>
            <Icon name="key" size={16} /> Create New Key
          </button>
        }
      />
      {bucket.isError && <ErrorState title="Could not load the bucket details" error={bucket.error} onRetry={() => bucket.refetch()} />}
      {appKeys.isError && <ErrorState title="Could not load the keys" error={appKeys.error} onRetry={() => appKeys.refetch()} />}
      <dl className="card key-list">
        {rows.map((r) => (
          <KeyRow key={r.label} row={r} />
        ))}
      </dl>
      <p className="muted">
        Apps send a key in the <code>X-Hostbase-Key</code> header, and a signed-in end user&apos;s access token in{' '}
        <code>X-Hostbase-User-Token</code>. Set the access rules per folder on the Storage screen and per table on the Database
        screen.
      </p>
      <RotateKeyModal open={rotating} onClose={() => setRotating(false)} projectId={projectId} />
    </div>
  );
}
