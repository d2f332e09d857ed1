// The Storage screen's access panels: folder access rules (who may use a folder's files with the
// publishable key, and whether they are public: readable by anyone at their public URL; the
// secret key and this console always have full access) and signed links (create for a file with an
// expiry, list with downloads, revoke).
import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  getListSignedLinksQueryKey,
  getListStorageRulesQueryKey,
  useCreateSignedLink,
  useDeleteStorageRule,
  useListSignedLinks,
  useListStorageRules,
  useRevokeSignedLink,
  useSetStorageRule,
} from '../../api/generated/storage/storage';
import { StorageAccess, type SignedLink, type StorageFile, type StorageRule } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { CopyButton } from '../../components/CopyButton';
import { FormError } from '../../components/FormError';
import { Empty, QueryView } from '../../components/States';
import { useToast } from '../../components/Toast';
import { fileNameFromMetadata, formatDate } from '../../lib/format';

export const STORAGE_ACCESS: { value: StorageAccess; label: string; explain: string }[] = [
  { value: StorageAccess.none, label: 'No app access', explain: 'Only this console and the secret key reach these files.' },
  { value: StorageAccess.read, label: 'Public read', explain: 'Anyone with the publishable key may list and download; nobody may upload or delete.' },
  { value: StorageAccess.signed_in, label: 'Signed-in users', explain: 'Signed-in end users may list, download, upload and delete every file.' },
  { value: StorageAccess.owner, label: 'Owner only', explain: 'Each file belongs to the end user who uploaded it: users see and delete only their own.' },
];

const FOLDER = /^([A-Za-z0-9_][A-Za-z0-9._-]{0,62}(\/[A-Za-z0-9_][A-Za-z0-9._-]{0,62}){0,7})?$/;

export function folderError(folder: string): string | null {
  if (folder.length > 255) return 'At most 255 characters';
  if (!FOLDER.test(folder)) return 'Names of letters, digits, ".", "_" or "-" joined by "/", no "." or ".." parts';
  return null;
}

const accessLabel = (a: string) => STORAGE_ACCESS.find((r) => r.value === a)?.label ?? a;

export function StorageRulesPanel({ projectId }: { projectId: string }) {
  const rules = useListStorageRules(projectId);
  const setRule = useSetStorageRule(inlineError);
  const deleteRule = useDeleteStorageRule(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();
  const id = useId();
  const [folder, setFolder] = useState('');
  const [access, setAccess] = useState<StorageAccess>(StorageAccess.owner);
  const [isPublic, setPublic] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: getListStorageRulesQueryKey(projectId) });

  function save(e: FormEvent) {
    e.preventDefault();
    const f = folder.trim();
    const problem = folderError(f);
    if (problem) return setError(`Folder: ${problem}`);
    setError(null);
    setRule.mutate(
      { projectId, data: { folder: f, access, public: isPublic } },
      {
        onSuccess: async (res) => {
          toast.success('Access rule saved', `${res.rule.folder || 'Whole bucket'}: ${accessLabel(res.rule.access)}${res.rule.public ? ', public' : ''}`);
          setFolder('');
          setPublic(false);
          await refresh();
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  }

  function togglePublic(r: StorageRule) {
    const where = r.folder || 'Whole bucket';
    setRule.mutate(
      { projectId, data: { folder: r.folder, access: r.access, public: !r.public } },
      {
        onSuccess: async (res) => {
          toast.success(res.rule.public ? 'Folder is public' : 'Folder is private again', where);
          await refresh();
        },
        onError: (err) => toast.error('Could not change the folder', errorMessage(err)),
      },
    );
  }

  function remove(f: string) {
    deleteRule.mutate(
      { projectId, data: { folder: f } },
      {
        onSuccess: async () => {
          toast.success('Access rule removed', f || 'Whole bucket');
          await refresh();
        },
        onError: (err) => toast.error('Could not remove the rule', errorMessage(err)),
      },
    );
  }

  return (
    <section className="card panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="panel-title">
        Access rules
      </h2>
      <p className="muted settings-text">
        What apps may do with the files of a folder and its subfolders when they call with the publishable key (and a signed-in
        user&apos;s token). A folder without a rule follows the nearest folder above it; with no rule at all, apps get no access. The
        secret key and this console always have full access. A public folder&apos;s files can be read by anyone, without a key, at
        their public URL (<code>/api/storage/v1/object/public/&lt;object id&gt;</code>) until you make it private again.
      </p>
      <QueryView
        query={rules}
        loading="Loading rules..."
        errorTitle="Could not load the access rules"
        isEmpty={(d) => d.rules.length === 0}
        empty={<p className="muted">No rules yet: apps can&apos;t reach any file with the publishable key.</p>}
      >
        {(d) => (
          <ul className="rule-list" aria-label="Access rules">
            {d.rules.map((r) => (
              <li key={r.folder} className="rule-item">
                <code>{r.folder || '(whole bucket)'}</code> <strong>{accessLabel(r.access)}</strong>
                {r.public ? <span className="pill pill-yellow">Public</span> : null}
                <button
                  type="button"
                  className="btn btn-secondary btn-sm"
                  onClick={() => togglePublic(r)}
                  disabled={setRule.isPending}
                  aria-label={`${r.public ? 'Make private' : 'Make public'}: ${r.folder || 'whole bucket'}`}
                >
                  {r.public ? 'Make private' : 'Make public'}
                </button>
                <button type="button" className="btn btn-secondary btn-sm" onClick={() => remove(r.folder)} disabled={deleteRule.isPending}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      <form className="form rule-form" onSubmit={save} aria-label="Set an access rule">
        <div className="field">
          <label htmlFor={`${id}-folder`}>Folder</label>
          <input id={`${id}-folder`} className="input" value={folder} onChange={(e) => setFolder(e.target.value)} placeholder="avatars (empty: the whole bucket)" maxLength={255} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-access`}>Rule</label>
          <select id={`${id}-access`} className="input" value={access} onChange={(e) => setAccess(e.target.value as StorageAccess)}>
            {STORAGE_ACCESS.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
          <p className="muted field-hint">{STORAGE_ACCESS.find((r) => r.value === access)?.explain}</p>
        </div>
        <div className="field">
          <label className="checkbox">
            <input type="checkbox" checked={isPublic} onChange={(e) => setPublic(e.target.checked)} /> Public: anyone may read these files at
            their public URL, without a key
          </label>
        </div>
        <FormError message={error} />
        <div className="panel-actions">
          <button type="submit" className="btn btn-primary" disabled={setRule.isPending}>
            {setRule.isPending ? 'Saving...' : 'Save rule'}
          </button>
        </div>
      </form>
    </section>
  );
}

const EXPIRIES = [
  { seconds: 3600, label: '1 hour' },
  { seconds: 86400, label: '1 day' },
  { seconds: 604800, label: '7 days' },
];

function linkStatus(l: SignedLink, now = Date.now()): string {
  if (l.revoked_at) return 'Revoked';
  if (new Date(l.expires_at).getTime() <= now) return 'Expired';
  return 'Active';
}

export function SignedLinksPanel({ projectId, files }: { projectId: string; files: StorageFile[] }) {
  const links = useListSignedLinks(projectId, {});
  const create = useCreateSignedLink(inlineError);
  const revoke = useRevokeSignedLink(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();
  const id = useId();
  const [objectId, setObjectId] = useState('');
  const [expiresIn, setExpiresIn] = useState(3600);
  const [made, setMade] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: getListSignedLinksQueryKey(projectId) });
  const chosen = objectId || files[0]?.object_id || '';

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!chosen) return setError('Upload a file first');
    setError(null);
    create.mutate(
      { projectId, data: { object_id: chosen, expires_in: expiresIn } },
      {
        onSuccess: async (res) => {
          setMade(res.link.url ?? null);
          toast.success('Signed link created');
          await refresh();
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  }

  function onRevoke(l: SignedLink) {
    revoke.mutate(
      { projectId, data: { link_id: l.link_id } },
      {
        onSuccess: async () => {
          toast.success('Signed link revoked', l.name);
          await refresh();
        },
        onError: (err) => toast.error('Could not revoke the link', errorMessage(err)),
      },
    );
  }

  return (
    <section className="card panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="panel-title">
        Signed links
      </h2>
      <p className="muted settings-text">
        A signed link serves one file to whoever holds it, without a key, until it expires or you revoke it: the way to share a private
        file. Its address is shown once, when it is created.
      </p>
      <form className="form rule-form" onSubmit={submit} aria-label="Create a signed link">
        <div className="field">
          <label htmlFor={`${id}-file`}>File</label>
          <select id={`${id}-file`} className="input" value={chosen} onChange={(e) => setObjectId(e.target.value)}>
            {files.map((f) => (
              <option key={f.object_id} value={f.object_id}>
                {(f.folder ? `${f.folder}/` : '') + fileNameFromMetadata(f.metadata)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-expiry`}>Expires after</label>
          <select id={`${id}-expiry`} className="input" value={expiresIn} onChange={(e) => setExpiresIn(Number(e.target.value))}>
            {EXPIRIES.map((x) => (
              <option key={x.seconds} value={x.seconds}>
                {x.label}
              </option>
            ))}
          </select>
        </div>
        <FormError message={error} />
        <div className="panel-actions">
          <button type="submit" className="btn btn-primary" disabled={create.isPending || files.length === 0}>
            {create.isPending ? 'Creating...' : 'Create signed link'}
          </button>
        </div>
      </form>
      {made && (
        <div className="copy-line" role="status">
          <code className="key-value" data-testid="signed-link-url">
            {made}
          </code>
          <CopyButton value={made} label="signed link" />
        </div>
      )}
      <QueryView
        query={links}
        loading="Loading links..."
        errorTitle="Could not load the signed links"
        isEmpty={(d) => d.links.length === 0}
        empty={<Empty icon="lock" title="No signed links yet" />}
      >
        {(d) => (
          <ul className="rule-list" aria-label="Signed links">
            {d.links.map((l) => {
              const status = linkStatus(l);
              return (
                <li key={l.link_id} className="rule-item">
                  <strong>{l.name}</strong> <span className="muted">{status}</span>{' '}
                  <span className="muted">
                    expires {formatDate(l.expires_at)} · {l.download_count} {l.download_count === 1 ? 'download' : 'downloads'}
                  </span>
                  {status === 'Active' && (
                    <button type="button" className="btn btn-secondary btn-sm" onClick={() => onRevoke(l)} disabled={revoke.isPending} aria-label={`Revoke link to ${l.name}`}>
                      Revoke
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </QueryView>
    </section>
  );
}
