// V8's old generation kept close to what the platform holds, for the process that serves
// (server.ts imports this first, before the modules it loads; tests and tools keep V8's defaults).
//
// After a full GC, V8 lets the old generation grow to 1.1-4x what survived before the next one,
// the factor rising with how cheap its collections have been: at start-up (~1,100 modules loaded,
// the contract compiled, PGlite opened) it chose ~4x, and the garbage of start-up then sat in a
// heap of ~110 MB for ~50 MB alive, until V8's memory reducer shrank it half a minute after
// the last request. 1.25x keeps it near what lives. Measured with bench/upload-memory.ts
// (PGlite, reopened data dir): RSS once up 181 -> ~148 MB.
import v8 from 'node:v8';

/** Growth allowed to the old generation after a full GC, in percent of what survived it. */
export const HEAP_GROWING_PERCENT = 25;

v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
