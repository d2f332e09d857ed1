// How the server process runs, in one place: `npm start`, `npm run serve` and the benches
// (bench/server-process.ts) start it with these, and docker/Dockerfile's CMD and ENV say the same
// (test/docker/docker-files.test.ts checks it), so a figure measured by a bench is what users get.
//
// --max-semi-space-size=1: a 1 MiB young generation. Streamed uploads churn through small
// buffers, and V8's default 16 MiB semi-spaces let them pile up (bench/storage.ts on PostgreSQL:
// idle RSS 131 -> 111 MB, a 256 MiB upload's peak 176 -> 144 MB, no loss of throughput).
// No --enable-source-maps: it parses every compiled file's source map at start and keeps it,
// ~10 MB of heap (bench/upload-memory.ts, reopened PGlite: idle 147 -> 158 MB with it). Stack
// traces name the compiled files in dist/; set NODE_OPTIONS=--enable-source-maps to map them to
// the TypeScript sources.
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=1'];

// Two malloc arenas: glibc's default of one per thread (8 x cores) kept freed memory in each
// (idle RSS ~5 MB lower with 2, bench/upload-memory.ts).
export const SERVER_ENV = { MALLOC_ARENA_MAX: '2' };

export const SERVER_ENTRY = 'dist/server/src/server.js';
