// A stream's bytes run a scavenge every RELEASE_EVERY of them, and only then: V8's own GC
// notifications (perf_hooks 'gc' entries, kind minor) are the witness.
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { RELEASE_EVERY, YoungBufferRelease } from './young-buffers';

async function minorGcsDuring(fn: () => void): Promise<number> {
  const entries: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  fn();
  // GC entries are delivered asynchronously.
  await new Promise((r) => setTimeout(r, 50));
  observer.disconnect();
  return entries.filter((e) => (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR).length;
}

test('a scavenge once a stream has passed RELEASE_EVERY bytes, none before', async () => {
  const release = new YoungBufferRelease();
  // Warm up: the collector is looked up at the first release.
  release.add(RELEASE_EVERY);
  expect(await minorGcsDuring(() => release.add(RELEASE_EVERY - 1))).toBe(0);
  expect(await minorGcsDuring(() => release.add(1))).toBeGreaterThanOrEqual(1);
});

test('chunk by chunk: one scavenge per RELEASE_EVERY bytes', async () => {
  const release = new YoungBufferRelease();
  const chunk = 64 * 1024;
  const count = await minorGcsDuring(() => {
    for (let sent = 0; sent < 3 * RELEASE_EVERY; sent += chunk) release.add(chunk);
  });
  expect(count).toBeGreaterThanOrEqual(3);
});
