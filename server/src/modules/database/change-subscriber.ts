// One SSE client of live changes: a live stream (platform/http/live-streams.ts: its events in
// order, a bounded queue while its socket is full) that knows its table, end user and credentials.
import type { Writable } from 'node:stream';
import { LiveStream } from '../../platform/http/live-streams';
import type { ChangesLimits } from './changes.limits';

/**
 * The credentials a stream was opened with: `id` groups streams opened with the same ones (one
 * check for all of them); `stillValid` resolves false once they would be refused.
 */
export interface Credential {
  id: string;
  stillValid(): Promise<boolean>;
}

/** One SSE client of a table's changes. */
export class Subscriber extends LiveStream {
  constructor(
    readonly projectId: string,
    readonly table: string,
    /** The signed-in end user of the stream, or null (the key alone). */
    readonly endUserId: string | null,
    out: Writable,
    limits: Pick<ChangesLimits, 'queuedEvents' | 'endGraceMs'>,
    /** What the stream was opened with, checked again every recheckMs. */
    readonly credential?: Credential,
  ) {
    super(out, limits);
  }
}
