// The one fetch wrapper of the web app: every generated hook calls customFetch.
// Base URL /api, bearer token from localStorage "token", JSON bodies, and errors that
// carry the server's message, worded for people (or "HTTP Error: {status}" / "An unknown error occurred").

import { getToken } from '../lib/session';
import { humanMessage } from './human-message';
import { sseParser, type SseEvent } from './sse';

export const API_BASE = '/api';

export const UNKNOWN_ERROR = 'An unknown error occurred';

/** An error answered by the server (non-OK status) or a network failure (status 0). */
export class ApiError extends Error {
  readonly status: number;
  /** The server's own `message` when it sent one, without validator paths (human-message.ts); `body` keeps it as sent. */
  readonly serverMessage?: string;
  readonly body?: unknown;

  constructor(message: string, status: number, serverMessage?: string, body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.serverMessage = serverMessage;
    this.body = body;
  }
}

function authHeaders(): Record<string, string> {
  const token = getToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

function withBase(url: string): string {
  if (/^https?:\/\//.test(url) || url.startsWith(API_BASE + '/')) return url;
  return API_BASE + (url.startsWith('/') ? url : `/${url}`);
}

function messageOf(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'message' in body) {
    const m = (body as { message?: unknown }).message;
    if (typeof m === 'string' && m.length > 0) return m;
  }
  return undefined;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json') || /^[[{"]/.test(text.trim())) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** Turns a non-OK answer into the error the UI shows. */
export function httpError(status: number, body: unknown): ApiError {
  const sent = messageOf(body);
  const serverMessage = sent === undefined ? undefined : humanMessage(sent);
  return new ApiError(serverMessage ?? `HTTP Error: ${status}`, status, serverMessage, body);
}

/**
 * orval mutator (fetch flavour): `customFetch<T>(url, init)`. Resolves with the parsed body.
 */
export async function customFetch<T>(url: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  for (const [k, v] of Object.entries(authHeaders())) headers.set(k, v);
  let payload = init.body;
  const isForm = typeof FormData !== 'undefined' && payload instanceof FormData;
  if (isForm) headers.delete('Content-Type');
  else if (payload === undefined || payload === null) {
    // An optional JSON body left out: send an empty object, never an empty JSON body.
    if (headers.get('Content-Type')?.includes('json')) payload = '{}';
  } else if (!headers.has('Content-Type')) {
    headers.set('Content-Type', 'application/json');
  }

  let res: Response;
  try {
    res = await fetch(withBase(url), { ...init, body: payload, method: init.method ?? 'POST', headers });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(UNKNOWN_ERROR, 0);
  }
  let body: unknown;
  try {
    body = await readBody(res);
  } catch {
    throw new ApiError(res.ok ? UNKNOWN_ERROR : `HTTP Error: ${res.status}`, res.status);
  }
  if (!res.ok) throw httpError(res.status, body);
  return body as T;
}

export default customFetch;

/**
 * A POST whose answer is a file (a project's archive), saved by the browser under the name the
 * server gives (Content-Disposition) or `fallbackName`. Same auth and error rules as customFetch.
 */
export async function downloadFile(url: string, fallbackName: string): Promise<string> {
  const headers = new Headers({ 'Content-Type': 'application/json', ...authHeaders() });
  let res: Response;
  try {
    res = await fetch(withBase(url), { method: 'POST', headers, body: '{}' });
  } catch {
    throw new ApiError(UNKNOWN_ERROR, 0);
  }
  if (!res.ok) throw httpError(res.status, await readBody(res).catch(() => undefined));
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const href = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // After the click has handed the blob to the download.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
  return name;
}

/**
 * A GET answered with Server-Sent Events, read through fetch (EventSource cannot send the bearer
 * token): `onEvent` gets each event as it arrives; resolves when the server closes the stream.
 * Same auth and error rules as customFetch; aborting `signal` stops reading.
 */
export async function readEventStream(url: string, onEvent: (e: SseEvent) => void, signal?: AbortSignal): Promise<void> {
  let res: Response;
  try {
    res = await fetch(withBase(url), { method: 'GET', headers: { Accept: 'text/event-stream', ...authHeaders() }, signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(UNKNOWN_ERROR, 0);
  }
  if (!res.ok) throw httpError(res.status, await readBody(res).catch(() => undefined));
  if (!res.body) throw new ApiError(UNKNOWN_ERROR, res.status);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const parse = sseParser();
  let done = false;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (signal?.aborted) throw err;
        throw new ApiError(UNKNOWN_ERROR, 0);
      }
      // stream: a character split between two chunks is decoded once both arrived.
      const text = chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      done = chunk.done;
      for (const e of parse(text)) onEvent(e);
      if (done) return;
    }
  } finally {
    // Stopped early (a handler threw): the connection is let go rather than left open.
    if (!done) void reader.cancel().catch(() => undefined);
  }
}

/** The message to show for any thrown value. */
export function errorMessage(err: unknown, fallback = UNKNOWN_ERROR): string {
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}

export interface UploadOptions {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * Multipart upload through XMLHttpRequest, the only browser API that reports upload progress.
 * Same auth and error rules as customFetch.
 */
export function uploadWithProgress<T>(url: string, form: FormData, opts: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', withBase(url));
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && opts.onProgress) opts.onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = xhr.responseText;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        opts.onProgress?.(1);
        resolve(body as T);
      } else reject(httpError(xhr.status, body));
    };
    xhr.onerror = () => reject(new ApiError(UNKNOWN_ERROR, 0));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    opts.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}
