// Dead Buffers of a long stream, freed as the stream goes instead of piling up.
//
// Node's HTTP parser copies each piece of a request body into a new Buffer (one per socket read,
// up to 64 KiB), and a file read stream makes one per read. They die within milliseconds, but V8
// frees a young Buffer's memory only at a scavenge (its young-generation GC), and a stream of
// Buffers hardly triggers one: a 64 KiB chunk costs a few hundred bytes of JS heap, and V8 forces
// a scavenge for the buffers' own sake only past 32 MiB of them (twice its default semi-space,
// whatever --max-semi-space-size says). Measured with bench/upload-memory.ts on a 256 MiB upload:
// ~30 MB of dead body chunks at the peak; with a scavenge every RELEASE_EVERY bytes, ~10 MB.
import v8 from 'node:v8';
import vm from 'node:vm';

/** Bytes of a stream between two scavenges: each costs well under a millisecond (1 MiB semi-space). */
export const RELEASE_EVERY = 4 << 20;

type Gc = (options: { type: 'minor' }) => void;
let gc: Gc | null | undefined;

/**
 * V8's gc(), exposed on request (--expose-gc at run time gives it to contexts made afterwards,
 * not to the platform's own global scope). null where V8 refuses: streams then run as before.
 */
function collector(): Gc | null {
  if (gc === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      const found: unknown = vm.runInNewContext('typeof gc === "function" ? gc : null');
      gc = typeof found === 'function' ? (found as Gc) : null;
    } catch {
      gc = null;
    }
  }
  return gc;
}

/** Counts a stream's bytes and runs a scavenge every RELEASE_EVERY of them. */
export class YoungBufferRelease {
  private since = 0;

  add(bytes: number): void {
    this.since += bytes;
    if (this.since < RELEASE_EVERY) return;
    this.since = 0;
    collector()?.({ type: 'minor' });
  }
}
