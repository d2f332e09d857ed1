// Wires handlers to the operations of openapi.yaml through fastify-openapi-glue: routes, request
// validation and response serialization come from the spec. A handler for an operation that is
// not in the spec is a start-up error; an operation without a handler answers 501 and is counted
// by the contract test.
import fs from 'node:fs';
import path from 'node:path';
import secureJson from 'secure-json-parse';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { operations, type OperationId } from '../generated/operations';
import type { HandlerMap } from '../platform/http/types';
import { Errors } from './errors';
import { securityHook, type SchemeVerifier, type SecurityRequirement } from '../platform/http/security';
import { formFieldValidator, unstorableText } from './validation';
import { DEFAULT_JSON_LIMITS, parseBoundedJson } from '../platform/json-limits';

/**
 * The router's limit on one path parameter (Fastify's `maxParamLength`): the longest maxLength
 * any path parameter has in openapi.yaml. A longer one is a 414 (errors.ts frameworkErrors);
 * one within it but over its own maxLength is a 400 from the schema.
 */
export const MAX_PATH_PARAM_LENGTH = 256;

const ROOT = path.resolve(__dirname, '..', '..', '..', ...(__dirname.includes(`${path.sep}dist${path.sep}`) ? ['..'] : []));
/** openapi.yaml as parsed by `npm run gen` (scripts/gen.mjs says why; gen:check fails when it is stale). */
const PARSED_SPEC_PATH = path.join(ROOT, 'server', 'src', 'generated', 'openapi.json');

export interface OpenApiDoc {
  paths: Record<string, Record<string, { operationId?: string; 'x-quiet-log'?: boolean; security?: SecurityRequirement; requestBody?: { required?: boolean; content?: Record<string, unknown> }; responses?: Record<string, unknown> }>>;
  security?: SecurityRequirement;
  [k: string]: unknown;
}

/**
 * The parsed contract, held weakly: start-up's readers (the contract, the docs, CORS) share one parse,
 * and its ~3 MB of heap then go with a later full GC instead of staying for the process's life.
 * A reader after that parses again.
 */
let cached: WeakRef<OpenApiDoc> | undefined;
export function loadSpec(): OpenApiDoc {
  let doc = cached?.deref();
  if (!doc) {
    doc = (JSON.parse(fs.readFileSync(PARSED_SPEC_PATH, 'utf8')) as { document: OpenApiDoc }).document;
    cached = new WeakRef(doc);
  }
  // Glue mutates what it is given: hand out a copy.
  return structuredClone(doc);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    operationId?: string;
    /**
     * The operation is marked `x-quiet-log: true` in the contract: the console polls it (stats,
     * errors, usage) or a load balancer does (health), so its answers are logged at debug.
     */
    quietLog?: boolean;
  }
}

export interface ContractOptions {
  handlers: HandlerMap;
  verifiers: Record<string, SchemeVerifier>;
}

/**
 * Where module plugins put what the contract needs from them: their handlers and the verifiers of
 * their security schemes. The contract plugin reads it once every module plugin has loaded; an
 * operation or scheme claimed twice, or a part added after that, is a start-up error.
 */
export class ContractParts {
  readonly handlers: HandlerMap = {};
  readonly verifiers: Record<string, SchemeVerifier> = {};
  private sealed = false;

  add(module: string, parts: Partial<ContractOptions>): void {
    if (this.sealed) throw new Error(`${module}: contract parts added after the contract was registered`);
    for (const [kind, from, into] of [
      ['handler', parts.handlers ?? {}, this.handlers],
      ['verifier', parts.verifiers ?? {}, this.verifiers],
    ] as const) {
      const twice = Object.keys(from).filter((key) => key in into);
      if (twice.length) throw new Error(`${module}: a ${kind} for ${twice.join(', ')} is already registered`);
      Object.assign(into, from);
    }
  }

  seal(): ContractOptions {
    this.sealed = true;
    return { handlers: this.handlers, verifiers: this.verifiers };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Handlers and verifiers the module plugins contribute (ContractParts). */
    contractParts: ContractParts;
    /** Contract operations that answer 501 until a module implements them. */
    operationsWithoutHandler: string[];
  }
}

/** The collector every module plugin depends on. */
export const contractPartsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('contractParts', new ContractParts());
  },
  { name: 'hostbase-contract-parts' },
);

/** Every plugin that contributes contract parts: the contract is registered after all of them. */
export const CONTRACT_MODULES = [
  'hostbase-system',
  'hostbase-accounts',
  'hostbase-projects',
  'hostbase-end-users',
  'hostbase-storage',
  'hostbase-hosting',
  'hostbase-mail',
  'hostbase-database',
  'hostbase-contact',
  'hostbase-billing',
  'hostbase-usage',
  'hostbase-activity',
];

/**
 * The contract's routes with every module's handlers. The hooks its routes need come first: the
 * modules' own (the hosting gateway), the app APIs' CORS, the security headers, multipart (handlers stream forms).
 */
export const contractPlugin = fp(
  async (app: FastifyInstance) => {
    const parts = app.contractParts.seal();
    await registerContract(app, parts);
    app.decorate('operationsWithoutHandler', missingHandlers(parts.handlers));
  },
  { name: 'hostbase-contract', dependencies: ['hostbase-contract-parts', 'hostbase-security-headers', 'hostbase-app-cors', '@fastify/multipart', ...CONTRACT_MODULES] },
);

export function missingHandlers(handlers: HandlerMap): OperationId[] {
  return operations.map((o) => o.operationId).filter((id) => !(id in handlers));
}

export async function registerContract(app: FastifyInstance, opts: ContractOptions): Promise<void> {
  const spec = loadSpec();
  const known = new Set<string>(operations.map((o) => o.operationId));
  const extra = Object.keys(opts.handlers).filter((id) => !known.has(id));
  if (extra.length) throw new Error(`handlers for operations not in openapi.yaml: ${extra.join(', ')}`);

  const byId = new Map<string, { security: SecurityRequirement; multipart?: FormCheck; json?: 'required' | 'optional'; quietLog: boolean }>();
  for (const item of Object.values(spec.paths)) {
    for (const op of Object.values(item)) {
      if (!op?.operationId) continue;
      byId.set(op.operationId, {
        security: op.security ?? spec.security ?? [],
        multipart: formSchema(op.requestBody?.content?.['multipart/form-data'], spec.components),
        json: op.requestBody?.content?.['application/json'] ? (op.requestBody.required ? 'required' : 'optional') : undefined,
        quietLog: op['x-quiet-log'] === true,
      });
    }
  }

  // Streaming multipart: the body is not parsed up front, so its schema can't be checked here;
  // its text fields are checked as they arrive (multipartTextGuard), the rest by the handler.
  const multipart = new Set([...byId].filter(([, m]) => m.multipart).map(([id]) => id));
  app.addHook('onRoute', (route) => {
    const id = (route.config as { operationId?: string } | undefined)?.operationId;
    if (!id || !route.schema) return;
    if (multipart.has(id)) delete route.schema.body;
    // Glue keys a body schema by content type, and Fastify then validates only bodies of that
    // type: a text/plain body would reach the handler unchecked. Use the plain schema instead
    // (validated whatever the type) and let jsonBodyGuard refuse the other types first.
    const body = route.schema.body as { content?: Record<string, { schema?: unknown }> } | undefined;
    const json = body?.content?.['application/json']?.schema;
    if (json) route.schema.body = json;
  });

  // An empty body sent with Content-Type: application/json is no body: clients that always send
  // the header (hand-written fetch code) must not get a 400 where the body is optional; the guard
  // below then decides (a required body: 400; an optional one: {}). Otherwise parsed as Fastify
  // does, refusing __proto__ and constructor.prototype keys, within the JSON limits (nesting
  // depth, size: platform/json-limits.ts), before any hook or handler sees the body.
  const limits = (app.deps as Partial<typeof app.deps> | undefined)?.config?.json ?? DEFAULT_JSON_LIMITS;
  const secureParse = (text: string) => secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: limits.maxBytes }, (_req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, parseBoundedJson(text, 'body', limits, secureParse));
    } catch (err) {
      done(err as Error, undefined);
    }
  });

  // The contract names application/octet-stream (file downloads); a parser for it keeps glue's
  // start-up check quiet. JSON operations still refuse such bodies (jsonBodyGuard: 415).
  if (!app.hasContentTypeParser('application/octet-stream')) {
    app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  }

  const { default: glue } = await import('fastify-openapi-glue');
  await app.register(glue, {
    specification: withoutByteResponses(spec) as unknown as object,
    prefix: 'api',
    // Glue's types want full route options; it merges ours into its own, so a cast is honest here.
    operationResolver: ((operationId: string) => {
      const meta = byId.get(operationId)!;
      const handler = (opts.handlers as Record<string, unknown>)[operationId] as
        | ((req: FastifyRequest, reply: unknown) => Promise<unknown>)
        | undefined;
      const security = meta.security.filter((alt) => Object.keys(alt).length > 0);
      const isPublic = security.length === 0 || meta.security.some((alt) => Object.keys(alt).length === 0);
      return {
        handler: handler ?? (async () => { throw Errors.notImplemented(operationId); }),
        config: { operationId, quietLog: meta.quietLog },
        // We authenticate in onRequest ourselves (before validation) instead of glue's preHandler.
        preHandler: undefined,
        onRequest: isPublic ? undefined : securityHook(security, opts.verifiers),
        preValidation: meta.json ? jsonBodyGuard(meta.json === 'required') : meta.multipart ? multipartTextGuard(meta.multipart) : undefined,
      };
    }) as never,
  });
}

/**
 * The contract as glue gets it: responses keep their JSON schemas only. Glue checks every content
 * type it meets (responses too) against the request body parsers and warns at each start for the
 * ones without (file downloads of any type, `application/gzip` exports, `text/event-stream`); handlers send
 * those as streams or buffers, which Fastify never serialises, so their schemas have no use here.
 */
function withoutByteResponses(spec: OpenApiDoc): OpenApiDoc {
  const jsonOnly = (response: unknown) => {
    const content = (response as { content?: Record<string, unknown> } | undefined)?.content;
    if (!content) return;
    for (const type of Object.keys(content)) if (!/json/i.test(type)) delete content[type];
    if (Object.keys(content).length === 0) delete (response as { content?: unknown }).content;
  };
  for (const item of Object.values(spec.paths)) {
    for (const op of Object.values(item)) for (const response of Object.values(op?.responses ?? {})) jsonOnly(response);
  }
  const components = spec.components as { responses?: Record<string, unknown> } | undefined;
  for (const response of Object.values(components?.responses ?? {})) jsonOnly(response);
  return spec;
}

/**
 * For operations that take JSON: another Content-Type is a 415, a missing required body a 400,
 * and a missing optional body is treated as {} (so `curl -X POST` with no body works).
 */
function jsonBodyGuard(required: boolean) {
  return async (req: FastifyRequest) => {
    const type = req.headers['content-type'];
    if (type && !/^application\/(?:[\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
      throw Errors.unsupportedMediaType('Unsupported Content-Type (send application/json)');
    }
    if (req.body === undefined) {
      if (required) throw Errors.validation('body must be a JSON object');
      req.body = {};
    }
  };
}

interface StreamedPart {
  type: 'file' | 'field';
  fieldname: string;
  filename?: string;
  mimetype?: string;
  value?: unknown;
  file?: { resume(): unknown };
}

interface FormCheck {
  /** The form's declared parts, by name. */
  declared: Set<string>;
  checkField(field: string, value: string): void;
}

/** The text-field check of a multipart operation's form schema; undefined when it takes no form. */
function formSchema(content: unknown, components: unknown): FormCheck | undefined {
  if (!content) return undefined;
  const schema = (content as { schema?: Parameters<typeof formFieldValidator>[0] }).schema ?? {};
  return { declared: new Set(Object.keys(schema.properties ?? {})), checkField: formFieldValidator(schema, components) };
}

/**
 * Multipart bodies are streamed to the handler, so the schema check can't see them: the form's
 * parts are checked as they arrive instead (field names and values, a file's name and type), with
 * the same rule as JSON text (validation.ts), and each text field against its property in the
 * contract's form schema. A bad part is a 400 before the handler reads it (and so before anything
 * of the form is stored).
 */
// Handlers read forms with req.parts() (streaming); file()/files() would bypass this check.
function multipartTextGuard(form: FormCheck) {
  return async (req: FastifyRequest): Promise<void> => {
    const parts = req.parts.bind(req);
    (req as { parts: unknown }).parts = (...args: Parameters<typeof parts>) => checkedParts(parts(...args) as AsyncIterable<StreamedPart>, form);
  };
}

async function* checkedParts(parts: AsyncIterable<StreamedPart>, form: FormCheck): AsyncGenerator<StreamedPart> {
  for await (const part of parts) {
    // A text field the form does not declare is dropped unread, whatever its name or value: the
    // contract's form objects are open, as JSON bodies' are (prune-unknown.ts). Files go on to
    // the handler, which says where it wanted the file.
    if (part.type === 'field' && !form.declared.has(part.fieldname)) continue;
    const checks: [string, unknown][] = [
      ['body has a field name that', part.fieldname],
      [`body/${part.fieldname} (the file name)`, part.filename],
      [`body/${part.fieldname} (the part's Content-Type)`, part.mimetype],
      [`body/${part.fieldname}`, typeof part.value === 'string' ? part.value : undefined],
    ];
    for (const [where, text] of checks) {
      const problem = typeof text === 'string' ? unstorableText(text) : undefined;
      if (!problem) continue;
      part.file?.resume(); // drain the file so the request can end
      throw Errors.validation(`${where} ${problem}`);
    }
    if (part.type === 'field') form.checkField(part.fieldname, String(part.value ?? ''));
    yield part;
  }
}
