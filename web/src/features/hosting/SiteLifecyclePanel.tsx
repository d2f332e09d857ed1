// Taking the site offline (unpublish: deployments stay, activating one publishes again) and
// deleting it (processes, deployments, files and environment go), each behind a confirmation.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getListDeploymentsQueryKey, getListSiteEnvQueryKey, getListSitesQueryKey, useDeleteSite, useUnpublishSite } from '../../api/generated/hosting/hosting';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useToast } from '../../components/Toast';

export function SiteLifecyclePanel({ projectId, subdomain, domain, published, hasDeployments }: { projectId: string; subdomain: string; domain: string; published: boolean; hasDeployments: boolean }) {
  const [asking, setAsking] = useState<'unpublish' | 'delete' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const unpublish = useUnpublishSite(inlineError);
  const del = useDeleteSite(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();

  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: getListDeploymentsQueryKey(projectId) }),
      queryClient.invalidateQueries({ queryKey: getListSiteEnvQueryKey(projectId) }),
      queryClient.invalidateQueries({ queryKey: getListSitesQueryKey() }),
    ]);
  };
  const done = (title: string) => ({
    onSuccess: async () => {
      setAsking(null);
      toast.success(title, domain);
      await refresh();
    },
    onError: (err: unknown) => setError(errorMessage(err)),
  });
  const open = (what: 'unpublish' | 'delete') => {
    setError(null);
    setAsking(what);
  };

  return (
    <section className="card panel" aria-labelledby="lifecycle-title">
      <h2 id="lifecycle-title" className="panel-title">Site</h2>
      <div className="lifecycle-actions">
        <div>
          <p>
            <strong>Unpublish</strong>: take the site offline. Its deployments and environment are kept; make a deployment live to publish it again.
          </p>
          <button type="button" className="btn btn-secondary" disabled={!published} onClick={() => open('unpublish')}>
            Unpublish site
          </button>
        </div>
        <div>
          <p>
            <strong>Delete</strong>: stop the site and remove every deployment, its files and its environment. The project stays.
          </p>
          <button type="button" className="btn btn-danger" disabled={!hasDeployments && !published} onClick={() => open('delete')}>
            Delete site
          </button>
        </div>
      </div>
      <ConfirmDialog
        open={asking === 'unpublish'}
        title="Unpublish site"
        confirmLabel="Unpublish"
        busyLabel="Unpublishing..."
        busy={unpublish.isPending}
        error={error}
        message={<p>Take {domain} offline? Visitors get a "no site" page until you make a deployment live again.</p>}
        onConfirm={() => unpublish.mutate({ projectId }, done('Site unpublished'))}
        onCancel={() => setAsking(null)}
      />
      <ConfirmDialog
        open={asking === 'delete'}
        title="Delete site"
        confirmLabel="Delete site"
        busyLabel="Deleting..."
        danger
        requireText={subdomain}
        busy={del.isPending}
        error={error}
        message={<p>Delete the site at {domain} with all its deployments, files, variables and secrets? This cannot be undone.</p>}
        onConfirm={() => del.mutate({ projectId, data: { confirm: subdomain } }, done('Site deleted'))}
        onCancel={() => setAsking(null)}
      />
    </section>
  );
}
