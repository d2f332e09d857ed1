// @hostbase/client: the app-side API of a Hostbase project (end-user auth, storage, database rows and
// their live changes) for browsers and Node 20. The shapes come from openapi.yaml (./generated); this
// file only adds what a generated client can't: the session (kept, refreshed, shared between tabs),
// uploads with progress, the query builder and the changes stream.
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];
export type EndUser = Schemas['EndUser'];
/**
 * A stored file. Never a URL: files are private, so a page shows one through a signed URL
 * (`storage.createSignedUrl`), or a public folder's through `storage.getPublicUrl`.
 */
export type StorageFile = Omit<Schemas['StorageFile'], 'path'> & { /** The file's name, read from metadata. */ name: string };
export type FileList = Omit<Schemas['FileList'], 'files'> & { files: StorageFile[] };
export type DbRowPage<Row = Record<string, unknown>> = Omit<Schemas['DbRowPage'], 'rows'> & { rows: Row[] };
export type DbRowsChanged<Row = Record<string, unknown>> = Omit<Schemas['DbRowsChanged'], 'rows'> & { rows: Row[] };
export type DbFilter = Schemas['DbFilter'];
export type SignedLink = Schemas['SignedLink'] & { url: string };
export type SignedUrl = Schemas['SignedUrl'];
export type SignedUrlResult = Schemas['SignedUrlResult'];
export type FilterOp = DbFilter['op'];
export type { components, paths, operations } from './generated/openapi.js';

/** The project key and the end user's token travel in these headers. */
export const KEY_HEADER = 'x-hostbase-key';
export const USER_TOKEN_HEADER = 'x-hostbase-user-token';
const userTokenValue = (token: string) => token;

export interface Session {
  access_token: string;
  refresh_token: string;
  /** When the access token expires, in milliseconds since the epoch. */
  expires_at: number;
  user: EndUser;
}

export type AuthEvent = 'INITIAL_SESSION' | 'SIGNED_IN' | 'SIGNED_OUT' | 'TOKEN_REFRESHED';
export type AuthListener = (event: AuthEvent, session: Session | null) => void;

/** Where the session is kept: `localStorage` in browsers, memory in Node; any object with these three. */
export interface SessionStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface ClientOptions {
  /** Session store; default localStorage in a browser, memory elsewhere. `null`: memory. */
  sessionStore?: SessionStore | null;
  /** Refresh the session on its own before it expires (default true). */
  autoRefresh?: boolean;
  /** Seconds before expiry at which the session is refreshed (default 60). */
  refreshMargin?: number;
  fetch?: typeof fetch;
  /**
   * Milliseconds to wait for an answer before failing with a HostbaseError (code `timeout`);
   * default: no limit. Counts until the answer starts, so downloads and change streams aren't cut.
   */
  timeout?: number;
}

/**
 * Every failure of the client is one: the server's `message` and `code` with the HTTP `status`; or,
 * when no answer came (`status` 0), what to check, with `code` `network_error`, `timeout`, `aborted`
 * or `invalid_response`, and the underlying error as `cause`.
 */
export class HostbaseError extends Error {
  constructor(message: string, readonly status: number, readonly code?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HostbaseError';
  }
}

async function failure(res: Response): Promise<HostbaseError> {
  let message = `HTTP Error: ${res.status}`;
  let code: string | undefined;
  try {
    const body = JSON.parse(await res.text());
    if (typeof body?.message === 'string') message = body.message;
    if (typeof body?.code === 'string') code = body.code;
  } catch {
    /* not JSON: the status says it */
  }
  return new HostbaseError(message, res.status, code);
}

/** The platform's address as the developer gave it (without the /api the client adds). */
const platformOf = (base: string) => base.replace(/\/api$/, '');

/** fetch's own words and, when it has one, the reason below them ("fetch failed: connect ECONNREFUSED …"). */
function reason(err: unknown): string {
  const e = err as { message?: string; cause?: { message?: string; code?: string } };
  const below = e?.cause?.message || e?.cause?.code;
  return [e?.message || String(err), below].filter(Boolean).join(': ');
}

/**
 * One HTTP exchange: fetch, with what went wrong turned into a HostbaseError that says what to do.
 * `timeout` (ms) bounds the wait for the answer's headers only, so a long download or a change
 * stream is not cut.
 */
async function send(doFetch: typeof fetch, base: string, url: string, init: RequestInit, timeout?: number): Promise<Response> {
  const own = new AbortController();
  const outer = init.signal;
  const onAbort = () => own.abort(outer?.reason);
  outer?.addEventListener('abort', onAbort, { once: true });
  if (outer?.aborted) own.abort(outer.reason);
  let timedOut = false;
  const timer = timeout
    ? setTimeout(() => {
        timedOut = true;
        own.abort();
      }, timeout)
    : undefined;
  try {
    return await doFetch(url, { ...init, signal: own.signal });
  } catch (err) {
    const at = platformOf(base);
    if (timedOut) throw new HostbaseError(`Hostbase at ${at} did not answer within ${timeout} ms — is the server overloaded, or the address right? (timed out)`, 0, 'timeout', { cause: err });
    if (outer?.aborted) throw new HostbaseError('The request was aborted', 0, 'aborted', { cause: outer.reason ?? err });
    throw new HostbaseError(`Could not reach Hostbase at ${at} — is the server running, and the address right? (${reason(err)})`, 0, 'network_error', { cause: err });
  } finally {
    if (timer) clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  }
}

/** The answer's JSON; anything else (a proxy's HTML page, a cut body) is a HostbaseError. */
async function json<T>(res: Response, base: string): Promise<T> {
  try {
    return (await res.json()) as T;
  } catch (err) {
    throw new HostbaseError(`Hostbase at ${platformOf(base)} answered ${res.status} with something that is not the API's JSON — is the address the platform's? (${reason(err)})`, res.status, 'invalid_response', { cause: err });
  }
}

function memoryStore(): SessionStore {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
}

function browserStore(): SessionStore | undefined {
  try {
    const ls = (globalThis as { localStorage?: SessionStore }).localStorage;
    if (ls && typeof window !== 'undefined') return ls;
  } catch {
    /* storage disabled (privacy mode, sandboxed frame) */
  }
  return undefined;
}

/** `http://host` or `http://host/api` → `http://host/api`. */
export function apiBase(url: string): string {
  const u = url.replace(/\/+$/, '');
  return /\/api$/.test(u) ? u : `${u}/api`;
}

export interface RequestOptions {
  method?: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  /** Send the end user's access token when signed in (default true). */
  asUser?: boolean;
  signal?: AbortSignal;
  /** A stream that stays open (changes): the client's timeout does not apply. */
  stream?: boolean;
}

export type HostbaseClient = ReturnType<typeof createClient>;

/**
 * A client for one project: `url` is the platform (`https://hostbase.example`), `key` the project's
 * publishable key (safe in a page; the secret key only on servers).
 */
export function createClient(url: string, key: string, options: ClientOptions = {}) {
  if (!url || !key) throw new HostbaseError('createClient(url, key): both are required (the platform\'s address and the project\'s publishable key)', 0, 'invalid_arguments');
  const base = apiBase(url);
  const doFetch = options.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const auth = new Auth(base, key, doFetch, options);

  async function raw(path: string, o: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { [KEY_HEADER]: key, ...o.headers };
    if (o.asUser !== false) {
      const token = await auth.accessToken();
      if (token) headers[USER_TOKEN_HEADER] = userTokenValue(token);
    }
    let body = o.body;
    if (o.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(o.json);
    }
    // A streamed body (uploads in Node) must say it is sent while the answer may already come.
    const duplex = typeof ReadableStream !== 'undefined' && body instanceof ReadableStream ? { duplex: 'half' } : {};
    const res = await send(doFetch, base, base + path, { method: o.method ?? 'GET', headers, body, signal: o.signal, ...duplex }, o.stream ? undefined : options.timeout);
    if (!res.ok) throw await failure(res);
    return res;
  }
  const request = async <T>(path: string, o: RequestOptions = {}): Promise<T> => json<T>(await raw(path, o), base);
  const ctx: Ctx = { base, key, auth, raw, request };

  return {
    url: base,
    auth,
    storage: new Storage(ctx),
    db: { from: <Row = Record<string, unknown>>(table: string) => new Query<Row, DbRowPage<Row>>(ctx, table) },
    /** A call of any app operation, with the key and the user's token (`path` under /api). */
    request,
  };
}

interface Ctx {
  base: string;
  key: string;
  auth: Auth;
  raw(path: string, o?: RequestOptions): Promise<Response>;
  request<T>(path: string, o?: RequestOptions): Promise<T>;
}

// ---------------------------------------------------------------- auth

type ServerSession = Schemas['EndUserSession'];

export class Auth {
  private session: Session | null = null;
  private listeners = new Set<AuthListener>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private refreshing: Promise<Session | null> | undefined;
  private readonly store: SessionStore;
  private readonly storeKey: string;
  private readonly margin: number;

  constructor(
    private readonly base: string,
    private readonly key: string,
    private readonly doFetch: typeof fetch,
    private readonly options: ClientOptions,
  ) {
    this.store = options.sessionStore ?? browserStore() ?? memoryStore();
    this.storeKey = `hostbase.session.${base}.${key.slice(-12)}`;
    this.margin = (options.refreshMargin ?? 60) * 1000;
    this.session = this.read();
    this.schedule();
    // Another tab of the app signed in, refreshed (the refresh token rotated) or signed out.
    if (typeof window !== 'undefined' && this.store === browserStore()) {
      window.addEventListener('storage', (e) => {
        if (e.key !== this.storeKey) return;
        const [prev, next] = [this.session, this.read()];
        if (next?.refresh_token === prev?.refresh_token) return;
        this.session = next;
        this.schedule();
        this.emit(next ? (prev ? 'TOKEN_REFRESHED' : 'SIGNED_IN') : 'SIGNED_OUT');
      });
    }
  }

  /** The current session (null when signed out); it may be about to be refreshed. */
  getSession(): Session | null {
    return this.session;
  }

  /** The signed-in end user as of the session (`getUser()` asks the server). */
  get user(): EndUser | null {
    return this.session?.user ?? null;
  }

  async signUp(credentials: { email: string; password: string }): Promise<Session> {
    return this.start('/auth/v1/signup', credentials);
  }

  async signIn(credentials: { email: string; password: string }): Promise<Session> {
    const device = this.store.getItem(`${this.storeKey}.device.${credentials.email.toLowerCase()}`);
    return this.start('/auth/v1/signin', { ...credentials, ...(device ? { device_token: device } : {}) });
  }

  /** Revokes the refresh token on the server and forgets the session (also when the server can't be reached). */
  async signOut(): Promise<void> {
    const s = this.session;
    this.set(null, 'SIGNED_OUT');
    if (s) await this.post('/auth/v1/signout', { refresh_token: s.refresh_token }).catch(() => undefined);
  }

  /** The end user, from the server. */
  async getUser(): Promise<EndUser> {
    const token = await this.accessToken();
    if (!token) throw new HostbaseError('Not signed in', 401);
    const res = await send(this.doFetch, this.base, `${this.base}/auth/v1/user`, { headers: { [KEY_HEADER]: this.key, [USER_TOKEN_HEADER]: userTokenValue(token) } }, this.options.timeout);
    if (!res.ok) throw await failure(res);
    const user = await json<EndUser>(res, this.base);
    if (this.session) this.session = { ...this.session, user };
    return user;
  }

  /**
   * Calls `listener` on every change of the session, and once at once with the current one
   * (INITIAL_SESSION). Answers the function that stops it.
   */
  onAuthStateChange(listener: AuthListener): () => void {
    this.listeners.add(listener);
    queueMicrotask(() => this.listeners.has(listener) && listener('INITIAL_SESSION', this.session));
    return () => void this.listeners.delete(listener);
  }

  /**
   * Rotates the refresh token for a new session now. One refresh at a time; a session another tab
   * already refreshed is taken over instead (reusing a rotated refresh token would end them all).
   */
  refreshSession(): Promise<Session | null> {
    this.refreshing ??= this.doRefresh().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /** The access token to send, refreshed first when it is about to expire; undefined when signed out. */
  async accessToken(): Promise<string | undefined> {
    if (!this.session) return undefined;
    if (this.session.expires_at - Date.now() < this.margin) await this.refreshSession();
    return this.session?.access_token;
  }

  private async doRefresh(): Promise<Session | null> {
    const mine = this.session;
    if (!mine) return null;
    const stored = this.read();
    if (stored && stored.refresh_token !== mine.refresh_token && stored.expires_at - Date.now() > this.margin) {
      this.set(stored, 'TOKEN_REFRESHED');
      return stored;
    }
    try {
      return this.set(toSession(await this.post<ServerSession>('/auth/v1/refresh', { refresh_token: mine.refresh_token })), 'TOKEN_REFRESHED');
    } catch (err) {
      // Refused (revoked, expired, reused): the session is over. A network failure keeps it to retry.
      if (err instanceof HostbaseError && err.status === 401) this.set(null, 'SIGNED_OUT');
      else this.schedule(5000);
      throw err;
    }
  }

  private async start(path: string, body: object): Promise<Session> {
    const answer = await this.post<ServerSession>(path, body);
    if (answer.device_token) this.store.setItem(`${this.storeKey}.device.${answer.user.email.toLowerCase()}`, answer.device_token);
    return this.set(toSession(answer), 'SIGNED_IN');
  }

  private async post<T>(path: string, body: object): Promise<T> {
    const res = await send(
      this.doFetch,
      this.base,
      this.base + path,
      { method: 'POST', headers: { [KEY_HEADER]: this.key, 'content-type': 'application/json' }, body: JSON.stringify(body) },
      this.options.timeout,
    );
    if (!res.ok) throw await failure(res);
    return json<T>(res, this.base);
  }

  private set<S extends Session | null>(session: S, event: AuthEvent): S {
    this.session = session;
    if (session) this.store.setItem(this.storeKey, JSON.stringify(session));
    else this.store.removeItem(this.storeKey);
    this.schedule();
    this.emit(event);
    return session;
  }

  private emit(event: AuthEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(event, this.session);
      } catch (err) {
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }

  private read(): Session | null {
    try {
      const s = JSON.parse(this.store.getItem(this.storeKey) ?? 'null');
      return s && typeof s.refresh_token === 'string' && typeof s.access_token === 'string' ? s : null;
    } catch {
      return null;
    }
  }

  private schedule(delay?: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.session || this.options.autoRefresh === false) return;
    const wait = delay ?? Math.max(0, this.session.expires_at - this.margin - Date.now());
    this.timer = setTimeout(() => void this.refreshSession().catch(() => undefined), Math.min(wait, 2 ** 31 - 1));
    // In Node the timer must not keep the process alive.
    (this.timer as { unref?: () => void }).unref?.();
  }
}

function toSession(s: ServerSession): Session {
  return { access_token: s.access_token, refresh_token: s.refresh_token, expires_at: Date.now() + s.expires_in * 1000, user: s.user };
}

// ---------------------------------------------------------------- storage

export type UploadBody = Blob | ArrayBuffer | Uint8Array | string | AsyncIterable<Uint8Array>;

export interface UploadOptions {
  /** The file's name (default: the File's name, else "file"). */
  name?: string;
  /** Its Content-Type (default: the Blob's type, else application/octet-stream). */
  contentType?: string;
  /** The folder to store it in (its access rule applies). */
  folder?: string;
  /** The body's size in bytes, for a stream (progress then knows the total). */
  size?: number;
  /** Called as bytes go out: loaded and total (total undefined when unknown). */
  onProgress?: (loaded: number, total: number | undefined) => void;
  signal?: AbortSignal;
}

/** The file with its name; a share link the secret key was told about is left out (see StorageFile). */
const withName = ({ path: _path, ...f }: Schemas['StorageFile']): StorageFile => {
  let name = '';
  try {
    name = String(JSON.parse(f.metadata)?.name ?? '');
  } catch {
    /* metadata that is not JSON: no name */
  }
  return { ...f, name };
};

export class Storage {
  constructor(private readonly c: Ctx) {}

  /** A page (100, newest first) of the files the caller may read. */
  async list(options: { page?: number; folder?: string } = {}): Promise<FileList> {
    const q = new URLSearchParams();
    if (options.page) q.set('page', String(options.page));
    if (options.folder) q.set('folder', options.folder);
    const query = q.toString();
    const list = await this.c.request<Schemas['FileList']>(`/storage/v1/objects${query ? `?${query}` : ''}`);
    return { ...list, files: list.files.map(withName) };
  }

  /** Stores a file; `onProgress` follows the bytes (XHR in browsers, the request stream in Node). */
  async upload(file: UploadBody, options: UploadOptions = {}): Promise<StorageFile> {
    const name = options.name ?? (file as { name?: string }).name ?? 'file';
    const type = options.contentType ?? ((file instanceof Blob && file.type) || 'application/octet-stream');
    if (typeof XMLHttpRequest !== 'undefined' && typeof FormData !== 'undefined') {
      const form = new FormData();
      if (options.folder !== undefined) form.append('folder', options.folder);
      form.append('file', file instanceof Blob ? file : new Blob([await collect(file)], { type }), name);
      return withName((await this.xhr(form, options)).file);
    }
    const boundary = `----hostbase${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
    const enc = new TextEncoder();
    const quoted = name.replace(/[\r\n"]/g, (ch) => encodeURIComponent(ch));
    const head = enc.encode(
      (options.folder !== undefined ? `--${boundary}\r\nContent-Disposition: form-data; name="folder"\r\n\r\n${options.folder}\r\n` : '') +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted}"\r\nContent-Type: ${type.replace(/[\r\n]/g, '')}\r\n\r\n`,
    );
    const tail = enc.encode(`\r\n--${boundary}--\r\n`);
    const total = options.size ?? sizeOf(file);
    const chunks = chunksOf(file);
    let loaded = 0;
    let step = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(ctrl) {
        if (step === 0) {
          step = 1;
          return ctrl.enqueue(head);
        }
        if (step === 1) {
          const next = await chunks.next();
          if (!next.done) {
            loaded += next.value.byteLength;
            ctrl.enqueue(next.value);
            options.onProgress?.(loaded, total);
            return;
          }
          step = 2;
        }
        ctrl.enqueue(tail);
        ctrl.close();
      },
      cancel: () => void chunks.return?.(undefined),
    });
    const res = await this.c.raw('/storage/v1/objects', {
      method: 'POST',
      body,
      // With a known size the server gets a Content-Length (and can refuse a too-large file at once).
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...(total === undefined ? {} : { 'content-length': String(head.byteLength + total + tail.byteLength) }) },
      signal: options.signal,
    });
    return withName((await json<{ file: Schemas['StorageFile'] }>(res, this.c.base)).file);
  }

  /** The file's bytes (a Blob; `.text()`, `.arrayBuffer()`, `URL.createObjectURL`). */
  async download(objectId: string): Promise<Blob> {
    const res = await this.c.raw(`/storage/v1/objects/${encodeURIComponent(objectId)}`);
    try {
      return await res.blob();
    } catch (err) {
      throw new HostbaseError(`The download from Hostbase at ${platformOf(this.c.base)} broke off (${reason(err)})`, 0, 'network_error', { cause: err });
    }
  }

  /**
   * A short-lived URL that serves the file without a key: the way to show a private file in a page
   * (`<img src>`). Signed for this caller (the signed-in user, else the key) and checked at every
   * download: it ends at `expires_at` (`expiresIn` seconds; default 1 hour, at most the platform's
   * maximum, 1 day unless changed), and at once when the folder's rule stops letting this caller
   * read the file, the user is removed or changes password, or the file is deleted.
   */
  async createSignedUrl(objectId: string, expiresIn?: number): Promise<SignedUrl> {
    const answer = await this.c.request<Schemas['SignedUrlCreated']>(`/storage/v1/object/sign/${encodeURIComponent(objectId)}`, {
      method: 'POST',
      json: expiresIn === undefined ? {} : { expires_in: expiresIn },
    });
    return answer.signed_url;
  }

  /**
   * createSignedUrl for up to 100 files at once, in order; a file the caller may not read (or that
   * does not exist) comes back with `url: null` and `error`.
   */
  async createSignedUrls(objectIds: string[], expiresIn?: number): Promise<SignedUrlResult[]> {
    const answer = await this.c.request<{ signed_urls: SignedUrlResult[] }>('/storage/v1/object/sign', {
      method: 'POST',
      json: { object_ids: objectIds, ...(expiresIn === undefined ? {} : { expires_in: expiresIn }) },
    });
    return answer.signed_urls;
  }

  /**
   * The public URL of a file in a folder the developer marked public (console, Storage: access
   * rules): served to anyone, no key, until the flag is cleared. No call is made: any other file
   * answers 404 there.
   */
  getPublicUrl(objectId: string): string {
    return `${this.c.base}/storage/v1/object/public/${encodeURIComponent(objectId)}`;
  }

  /**
   * A revocable link, stored on the server with its download count: it serves the file without a
   * key until it expires (`expiresIn` seconds, at most 7 days) or is revoked, and while the folder's
   * rule still lets the caller who made it read the file. For an `<img src>`, prefer createSignedUrl.
   */
  async signedUrl(objectId: string, expiresIn = 3600): Promise<SignedLink> {
    const answer = await this.c.request<Schemas['SignedLinkCreated']>(`/storage/v1/objects/${encodeURIComponent(objectId)}/signed-links`, {
      method: 'POST',
      json: { expires_in: expiresIn },
    });
    return answer.link as SignedLink;
  }

  /** Stops a signed link at once. */
  async revokeSignedUrl(linkId: string): Promise<void> {
    await this.c.raw(`/storage/v1/signed-links/${encodeURIComponent(linkId)}`, { method: 'DELETE' });
  }

  /** Deletes a file. */
  async remove(objectId: string): Promise<void> {
    await this.c.raw(`/storage/v1/objects/${encodeURIComponent(objectId)}`, { method: 'DELETE' });
  }

  /** Alias of remove(). */
  delete(objectId: string): Promise<void> {
    return this.remove(objectId);
  }

  private async xhr(form: FormData, options: UploadOptions): Promise<{ file: Schemas['StorageFile'] }> {
    const token = await this.c.auth.accessToken();
    return new Promise((resolve, reject) => {
      const x = new XMLHttpRequest();
      x.open('POST', `${this.c.base}/storage/v1/objects`);
      x.setRequestHeader(KEY_HEADER, this.c.key);
      if (token) x.setRequestHeader(USER_TOKEN_HEADER, userTokenValue(token));
      x.upload.onprogress = (e) => options.onProgress?.(e.loaded, e.lengthComputable ? e.total : undefined);
      x.onload = () => {
        const res = new Response(x.responseText, { status: x.status });
        if (x.status >= 200 && x.status < 300) resolve(json(res, this.c.base));
        else failure(res).then(reject);
      };
      x.onerror = () => reject(new HostbaseError(`Could not reach Hostbase at ${platformOf(this.c.base)} during the upload — is the server running, and the address right? (network error)`, 0, 'network_error'));
      x.onabort = () => reject(new HostbaseError('The upload was aborted', 0, 'aborted', { cause: options.signal?.reason }));
      options.signal?.addEventListener('abort', () => x.abort());
      x.send(form);
    });
  }
}

const CHUNK = 64 * 1024;

function sizeOf(b: UploadBody): number | undefined {
  if (b instanceof Blob) return b.size;
  if (typeof b === 'string') return new TextEncoder().encode(b).byteLength;
  if (b instanceof ArrayBuffer || ArrayBuffer.isView(b)) return b.byteLength;
  return undefined;
}

async function* chunksOf(b: UploadBody): AsyncGenerator<Uint8Array> {
  if (b instanceof Blob) {
    yield* chunksOf(b.stream() as unknown as AsyncIterable<Uint8Array>);
    return;
  }
  if (typeof b === 'string' || b instanceof ArrayBuffer || ArrayBuffer.isView(b)) {
    const bytes = typeof b === 'string' ? new TextEncoder().encode(b) : b instanceof ArrayBuffer ? new Uint8Array(b) : new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    for (let i = 0; i < bytes.byteLength; i += CHUNK) yield bytes.subarray(i, i + CHUNK);
    return;
  }
  for await (const c of b) yield typeof c === 'string' ? new TextEncoder().encode(c) : c;
}

async function collect(b: UploadBody): Promise<Uint8Array<ArrayBuffer>> {
  const parts: Uint8Array[] = [];
  for await (const c of chunksOf(b)) parts.push(c);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.byteLength) - p.byteLength);
  return out;
}

// ---------------------------------------------------------------- database

export interface Change<Row = Record<string, unknown>> {
  type: 'INSERT' | 'UPDATE' | 'DELETE';
  table: string;
  record?: Row;
  old_record?: Partial<Row>;
}

export interface SubscribeOptions {
  /** The stream is open (again): read what you show now, changes follow. */
  onReady?: () => void;
  /** The stream failed or ended; it reconnects on its own unless closed. */
  onError?: (error: Error) => void;
}

/**
 * `db.from(table)`: a query, run when awaited. Filters, order and page apply to select, filters to
 * update and delete (which need at least one), before or after them:
 * `await db.from('notes').update({ done: true }).eq('id', 3)`.
 */
export class Query<Row = Record<string, unknown>, Result = DbRowPage<Row>> implements PromiseLike<Result> {
  private readonly body: { columns?: string[]; filters: DbFilter[]; order: { column: string; ascending: boolean }[]; page?: number; count?: boolean } = {
    filters: [],
    order: [],
  };
  private action: 'select' | 'insert' | 'update' | 'delete' = 'select';
  private payload: object = {};

  constructor(
    private readonly c: Ctx,
    private readonly table: string,
  ) {}

  /** The columns to return (all by default): `select('id, body')` or `select(['id', 'body'])`. */
  select(columns?: string | string[]): this {
    if (columns !== undefined && columns !== '*') this.body.columns = Array.isArray(columns) ? columns : columns.split(',').map((s) => s.trim()).filter(Boolean);
    return this;
  }

  filter(column: string, op: FilterOp, value: unknown): this {
    this.body.filters.push({ column, op, value });
    return this;
  }
  eq = (column: string, value: unknown) => this.filter(column, 'eq', value);
  neq = (column: string, value: unknown) => this.filter(column, 'neq', value);
  gt = (column: string, value: unknown) => this.filter(column, 'gt', value);
  gte = (column: string, value: unknown) => this.filter(column, 'gte', value);
  lt = (column: string, value: unknown) => this.filter(column, 'lt', value);
  lte = (column: string, value: unknown) => this.filter(column, 'lte', value);
  like = (column: string, pattern: string) => this.filter(column, 'like', pattern);
  ilike = (column: string, pattern: string) => this.filter(column, 'ilike', pattern);
  in = (column: string, values: unknown[]) => this.filter(column, 'in', values);
  isNull = (column: string, isNull = true) => this.filter(column, 'is_null', isNull);

  order(column: string, options: { ascending?: boolean } = {}): this {
    this.body.order.push({ column, ascending: options.ascending ?? true });
    return this;
  }

  /** The page (1-based; 100 rows a page). */
  page(page: number): this {
    this.body.page = page;
    return this;
  }

  /** Also count every row the filters match (`total`). */
  count(): this {
    this.body.count = true;
    return this;
  }

  /** Inserts one row or many (runs when awaited). */
  insert(rows: Partial<Row> | Partial<Row>[]): Query<Row, DbRowsChanged<Row>> {
    return this.as('insert', { rows: Array.isArray(rows) ? rows : [rows] });
  }

  /** Sets `values` in the rows the filters match (runs when awaited). */
  update(values: Partial<Row>): Query<Row, DbRowsChanged<Row>> {
    return this.as('update', { values });
  }

  /** Deletes the rows the filters match (runs when awaited). */
  delete(): Query<Row, DbRowsChanged<Row>> {
    return this.as('delete', {});
  }

  then<A = Result, B = never>(ok?: ((v: Result) => A | PromiseLike<A>) | null, fail?: ((e: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    const { filters } = this.body;
    const body = this.action === 'select' ? this.body : this.action === 'insert' ? this.payload : { filters, ...this.payload };
    return this.c.request<Result>(`/db/v1/${encodeURIComponent(this.table)}/${this.action}`, { method: 'POST', json: body }).then(ok, fail);
  }

  catch<B = never>(fail: (e: unknown) => B | PromiseLike<B>): Promise<Result | B> {
    return this.then(undefined, fail);
  }

  private as(action: 'insert' | 'update' | 'delete', payload: object): Query<Row, DbRowsChanged<Row>> {
    this.action = action;
    this.payload = payload;
    return this as unknown as Query<Row, DbRowsChanged<Row>>;
  }

  /** Live changes of the table the caller may read (INSERT, UPDATE, DELETE), reconnecting on its own. */
  subscribe(onChange: (change: Change<Row>) => void, options: SubscribeOptions = {}): { close: () => void } {
    const stop = new AbortController();
    let failures = 0;
    const loop = async () => {
      while (!stop.signal.aborted) {
        try {
          const res = await this.c.raw(`/db/v1/${encodeURIComponent(this.table)}/changes`, { headers: { accept: 'text/event-stream' }, signal: stop.signal, stream: true });
          await readEvents(res, (event, data) => {
            if (event === 'ready') {
              failures = 0;
              options.onReady?.();
            } else if (event === 'error') throw new HostbaseError(JSON.parse(data).message ?? 'The change stream ended', 0, 'stream_ended');
            else if (event === 'INSERT' || event === 'UPDATE' || event === 'DELETE') onChange(JSON.parse(data));
          });
          if (!stop.signal.aborted) throw new HostbaseError('The change stream ended', 0, 'stream_ended');
        } catch (err) {
          if (stop.signal.aborted) return;
          // A stream cut mid-way fails inside the body's reader: said the same way as any other failure.
          options.onError?.(err instanceof HostbaseError ? err : new HostbaseError(`The change stream from Hostbase at ${platformOf(this.c.base)} broke off (${reason(err)})`, 0, 'network_error', { cause: err }));
          // Refusals that a retry won't change (no access, no table, bad key) end the subscription.
          if (err instanceof HostbaseError && [400, 401, 403, 404].includes(err.status)) return;
          failures += 1;
          await new Promise((r) => setTimeout(r, Math.min(30_000, 500 * 2 ** failures)));
        }
      }
    };
    void loop();
    return { close: () => stop.abort() };
  }
}

/** Server-Sent Events from a fetch answer (EventSource can't send the key header). */
async function readEvents(res: Response, on: (event: string, data: string) => void): Promise<void> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += value.replace(/\r\n?/g, '\n');
      let end;
      while ((end = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) event = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        }
        if (data.length || event !== 'message') on(event, data.join('\n'));
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
