// Request validation: JSON bodies are checked strictly (a number is not a string: a password of
// 12345678 is a 400, not silently "12345678"), while path and query values, which are always
// text on the wire, are coerced to the schema's types.
//
// Before the schema, every string (and property name) of a body, query or path is checked for
// text PostgreSQL cannot store: a NUL character (text columns refuse it: "invalid byte sequence
// for encoding UTF8: 0x00", a 500 once it reaches the database) and lone UTF-16 surrogates, which
// JSON.parse accepts ("\ud800") and both pg and PGlite would silently store as U+FFFD. Either is
// a 400 naming the field, before any handler runs, so nothing is half-written.
import Ajv, { type ErrorObject, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { Errors } from './errors';
import { onFirstUse, registerLazySerializers } from './lazy-schemas';
import { pruneUnknown } from './prune-unknown';

// verbose: errors carry their schema, so a rule's own wording (x-messages) can replace ajv's.
const base: Options = { useDefaults: true, removeAdditional: false, allErrors: false, addUsedSchema: false, strict: false, verbose: true };

// A NUL, or a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
// eslint-disable-next-line no-control-regex -- NUL is matched on purpose: PostgreSQL text cannot store it
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why this text can't be stored, as the end of a validation message; undefined when it can. */
export function unstorableText(value: string): string | undefined {
  const m = UNSTORABLE.exec(value);
  if (!m) return undefined;
  if (m[0] === '\u0000') return 'must not contain NUL characters (\\u0000)';
  const code = m[0].charCodeAt(0).toString(16).toUpperCase();
  return `must be valid Unicode text (it contains a lone surrogate \\u${code})`;
}

export interface TextProblem {
  /** JSON-pointer style path inside the checked value, "" for the value itself. */
  path: string;
  message: string;
}

/** The first string or property name inside `data` that can't be stored (iterative: any depth). */
export function findUnstorableText(data: unknown): TextProblem | undefined {
  const stack: [unknown, string][] = [[data, '']];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      const message = unstorableText(value);
      if (message) return { path, message };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}/${i}`]);
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (const [key] of entries) {
        const problem = unstorableText(key);
        if (problem) return { path, message: `has a property name that ${problem}` };
      }
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i][1], `${path}/${pointerEscape(entries[i][0])}`]);
    }
  }
  return undefined;
}

function pointerEscape(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * The storable-text check, then the schema's validator, compiled on the route's first request
 * (lazy-schemas.ts says why). Fastify formats the errors as "body/name must …".
 */
function withTextCheck(compile: () => Validate, prune: (data: unknown) => void = () => {}): Validate {
  let validate: Validate | undefined;
  const checked: Validate = (data: unknown) => {
    prune(data);
    const problem = findUnstorableText(data);
    if (problem) {
      checked.errors = [{ keyword: 'storableText', instancePath: problem.path, schemaPath: '#/storableText', params: {}, message: problem.message }];
      return false;
    }
    validate ??= compile();
    const ok = validate(data);
    checked.errors = validate.errors;
    return ok;
  };
  return checked;
}

/**
 * "body/name must …", as Fastify words it, except where the contract words a rule itself: a
 * schema's `x-messages: { minLength: 'Password must be at least 8 characters' }` answers
 * "body/password: Password must be at least 8 characters" (the product's text), and
 * `{ pattern: 'must not be empty' }` answers "body/name must not be empty".
 */
export function formatValidationErrors(errors: ErrorObject[], dataVar: string): Error {
  const text = errors.map((e) => {
    const parent = e.parentSchema as { 'x-messages'?: Record<string, string>; 'x-messages-bare'?: boolean } | undefined;
    const own = parent?.['x-messages']?.[e.keyword]
      // "{allowed}" in an enum's own message lists the allowed values.
      ?.replace('{allowed}', () => ((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).join(', '))
      // "{value}": the value refused, its first 40 characters.
      .replace('{value}', () => shortText(e.data));
    // The product's own words (SPEC texts such as "Domain name is required") are answered as they are.
    if (own && parent?.['x-messages-bare']) return own;
    // A sentence of its own ("Password must …") follows a colon; a predicate ("must not be empty") a space.
    if (own) return `${dataVar}${e.instancePath}${/^[A-Z]/.test(own) ? ': ' : ' '}${own}`;
    return `${dataVar}${e.instancePath} ${e.message}`;
  });
  return new Error(text.join(', '));
}

function shortText(value: unknown): string {
  const text = String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

export function registerValidation(app: FastifyInstance): void {
  app.setSchemaErrorFormatter((errors, dataVar) => formatValidationErrors(errors as ErrorObject[], dataVar));
  const strict = new Ajv({ ...base, coerceTypes: false });
  const coercing = new Ajv({ ...base, coerceTypes: 'array' });
  addFormats(strict);
  addFormats(coercing);
  // Bodies only: an undeclared query parameter or header is left where it is (headers are the request's own).
  app.setValidatorCompiler(({ schema, httpPart }) =>
    withTextCheck(onFirstUse(app, () => (httpPart === 'body' ? strict : coercing).compile(schema) as Validate), httpPart === 'body' ? pruneUnknown(schema) : undefined),
  );
  registerLazySerializers(app);
}

interface FormSchema {
  properties?: Record<string, { format?: string; [k: string]: unknown }>;
}

/**
 * A check of a multipart form's text fields, one field at a time as it arrives (the form is
 * streamed, so there is no whole body to validate): a field the schema declares must meet its
 * property's schema (values are text on the wire: coerced like query values), and fails with the
 * body's message shape, "body/type …". File properties (format: binary) and undeclared fields are
 * left to the handler, and so is `required`: a missing field is only known once the stream has
 * ended, and the handlers word those answers themselves (SPEC: "Please select a project type.").
 * `components` resolves the schema's $refs ("#/components/schemas/…").
 */
export function formFieldValidator(schema: FormSchema, components: unknown): (field: string, value: string) => void {
  const text = Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([, p]) => p.format !== 'binary'));
  if (!Object.keys(text).length) return () => {};
  const ajv = new Ajv({ ...base, coerceTypes: true });
  addFormats(ajv);
  const validate = ajv.compile({ type: 'object', properties: text, components }) as Validate;
  return (field, value) => {
    if (!Object.hasOwn(text, field) || validate({ [field]: value })) return;
    throw Errors.validation(formatValidationErrors(validate.errors ?? [], 'body').message);
  };
}
