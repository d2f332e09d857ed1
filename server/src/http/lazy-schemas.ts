// Route schemas compiled on a route's first use, not at start. The contract has ~170 request
// validators (ajv) and ~80 response serializers (fast-json-stringify); compiled eagerly they
// left ~2 MB of generated source, their code and the compile's garbage in every instance's heap,
// most for routes it may never serve (measured by bench/upload-memory.ts, reopened PGlite).
// A schema that can't compile must still fail loudly, and before users meet it:
// `compileAllSchemas(app)` forces every one, and test/contract/schemas-compile.test.ts calls it.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyInstance } from 'fastify';

const pending = new WeakMap<FastifyInstance, (() => unknown)[]>();

/** Registers a compile of `app`'s to run on first use (or in compileAllSchemas); returns the getter. */
export function onFirstUse<T>(app: FastifyInstance, compile: () => T): () => T {
  let compiled: T | undefined;
  const get = () => (compiled ??= compile());
  const list = pending.get(app) ?? [];
  list.push(get);
  pending.set(app, list);
  return get;
}

/** Compiles every schema the app registered (tests: a bad schema fails there, not in production); how many. */
export function compileAllSchemas(app: FastifyInstance): number {
  const list = pending.get(app) ?? [];
  for (const get of list) get();
  return list.length;
}

/**
 * Fastify's own serializer compiler (fast-json-stringify, no shared schemas: the contract's
 * routes carry theirs whole), each route's built on its first answer.
 */
export function registerLazySerializers(app: FastifyInstance): void {
  const compile = SerializerSelector()({}, {});
  app.setSerializerCompiler((route) => {
    // Fastify gives every route an httpStatus; its type says it may not.
    const get = onFirstUse(app, () => compile(route as Parameters<typeof compile>[0]));
    return (data: unknown) => get()(data);
  });
}
