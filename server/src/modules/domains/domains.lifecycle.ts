// A project's custom domains in an archive: each name and whether (since when) it is verified.
// Not its certificate or key: the target obtains its own over ACME once the name's DNS points at
// it. A name another project verified on the target comes back unverified; a name the target
// reserves (its domain, a subdomain of it, its mail host) is left out; each with a warning.
import type { Deps } from '../../platform/deps';
import type { ProjectLifecycle } from '../projects';
import { domainsArchiveRows as rows } from './domains.repository';
import { normalizeHostname } from './hostnames';

const CERTIFICATE = 'the target obtains its own certificate over ACME';
const ISSUING = "this platform's issuing of a certificate; the target issues its own";
const PLATFORM = "this platform's own ACME state, no project's";

const TABLES = {
  site_domains: {
    carried: ['hostname', 'verified_at', 'created_at'],
    leftOut: {
      id: 'made anew on import',
      project_id: "the section's project",
      cert_pem: CERTIFICATE,
      key_sealed: CERTIFICATE,
      cert_expires_at: CERTIFICATE,
      last_error: ISSUING,
      lease_until: ISSUING,
      next_attempt_at: ISSUING,
    },
  },
  acme_challenges: { carried: [], leftOut: PLATFORM },
  acme_accounts: { carried: [], leftOut: PLATFORM },
} as const;

export function domainsLifecycle(deps: { config: Pick<Deps['config'], 'platformDomain' | 'mailHost'> }): ProjectLifecycle {
  return {
    name: 'domains',
    after: ['projects'],
    tables: TABLES,

    async export(out) {
      out.put('domains', await rows.domains(out.tx, out.projectId, TABLES.site_domains.carried));
    },

    async import(input) {
      const kept = [];
      for (const dom of input.rows('domains')) {
        const check = normalizeHostname(dom.hostname, deps.config.platformDomain, deps.config.mailHost);
        if (!check.ok || check.hostname !== dom.hostname) {
          input.warn(`The custom domain ${String(dom.hostname)} was not imported: ${check.ok ? 'it is not in its normal form' : check.message}`);
          continue;
        }
        // A name verified by another project here stays that project's: ours comes back as a
        // pending claim (the rest of the project is not refused for it).
        if (dom.verified_at && (await rows.verifiedByAnother(input.tx, check.hostname))) {
          input.warn(`The custom domain ${check.hostname} is verified by another project on this platform: imported unverified; verify it again once that project releases it`);
          kept.push({ ...dom, verified_at: null, project_id: input.projectId });
        } else kept.push({ ...dom, project_id: input.projectId });
      }
      await rows.insert(input.tx, ['project_id', ...TABLES.site_domains.carried], kept);
    },
  };
}
