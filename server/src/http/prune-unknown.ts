// A JSON body's properties that its schema does not declare are dropped before the body is
// checked, so what reaches a handler is only what the contract names.
//
// Why: the contract (OpenAPI 3.0) leaves its request objects open, as JSON Schema does by
// default, and a client may send any extra property. The server used to refuse an extra property
// whose name held a NUL (the storable-text check, validation.ts) although nothing reads or stores
// it: a contract-driven tester found that on about 60 operations. Dropping unknown properties
// makes the server take exactly what the open contract allows, and a handler can never store a
// property it did not ask for. Objects the contract leaves open on purpose (`additionalProperties`
// true or a schema: table rows, the manifest's files, jsonb values, `{}`) are kept whole and
// checked whole: their property names are data. Objects the contract closes
// (`additionalProperties: false`) keep their extras too, for ajv to refuse as the contract says.

type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);

/** The schema and every allOf/anyOf/oneOf branch under it: together they say which keys exist. */
function branches(schema: Schema): Schema[] {
  const out = [schema];
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const list = schema[key];
    if (Array.isArray(list)) for (const s of list) if (isSchema(s)) out.push(...branches(s));
  }
  return out;
}

/** Drops undeclared properties of `data` in place, following the schema into declared ones. */
function prune(schema: Schema, data: unknown): void {
  if (Array.isArray(data)) {
    const items = branches(schema).map((s) => s.items).filter(isSchema);
    for (const element of data) for (const item of items) prune(item, element);
    return;
  }
  if (!data || typeof data !== 'object') return;
  const nodes = branches(schema);
  // additionalProperties said at all: open on purpose (kept whole) or closed (ajv refuses extras).
  const stated = nodes.some((s) => s.additionalProperties !== undefined || s.patternProperties !== undefined);
  const shaped = nodes.filter((s) => isSchema(s.properties));
  if (stated || !shaped.length) {
    for (const s of shaped) for (const [key, child] of Object.entries(s.properties as Record<string, unknown>)) if (isSchema(child)) prune(child, (data as Record<string, unknown>)[key]);
    return;
  }
  const record = data as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const declared = shaped.map((s) => (s.properties as Record<string, unknown>)[key]).filter(isSchema);
    if (!declared.length && !shaped.some((s) => Object.hasOwn(s.properties as object, key))) {
      delete record[key];
      continue;
    }
    for (const child of declared) prune(child, record[key]);
  }
}

/** A pruner for one request part's schema (Fastify's compiled route schemas have no $refs left). */
export function pruneUnknown(schema: unknown): (data: unknown) => void {
  if (!isSchema(schema)) return () => {};
  return (data) => prune(schema, data);
}
