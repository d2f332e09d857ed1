// Hosting's fixed lists and how a site's state is shown.
import type { ProjectType } from '../../api/generated/model';

export const PROJECT_TYPES: ProjectType[] = ['Node', 'PHP', 'React', 'Vite', 'Angular', 'Flask'];
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
