// Hosting's fixed lists and how a site's state is shown.
import { ProjectType } from '../../api/generated/model';

/**
 * A deploy form's types: the ones SPEC lists for it, in its order, then every other type of the
 * contract, so a site of any kind can be deployed (and built) from either form. Node and Node.js
 * are one type to the platform: only the name the list already has is offered.
 */
export function everyType(listed: ProjectType[]): ProjectType[] {
  const same = (t: ProjectType) => (t === 'Node.js' ? 'Node' : t);
  const offered = new Set(listed.map(same));
  const out = [...listed];
  for (const t of Object.values(ProjectType)) {
    if (offered.has(same(t))) continue;
    offered.add(same(t));
    out.push(t);
  }
  return out;
}

export const PROJECT_TYPES: ProjectType[] = everyType(['Node', 'PHP', 'React', 'Vite', 'Angular', 'Flask']);
export const STATS_POLL_MS = 5000;

export const deploymentTone = { live: 'green', building: 'yellow', failed: 'red', superseded: 'gray' } as const;

/** Site state -> the status badge values of SPEC section 3. */
export function badgeStatus(liveStatus: string | undefined): string {
  switch (liveStatus) {
    case 'live':
      return 'active';
    case 'building':
      return 'maintenance';
    case 'failed':
      return 'error';
    case 'none':
    case 'unpublished':
    case undefined:
      return 'inactive';
    default:
      return liveStatus;
  }
}
