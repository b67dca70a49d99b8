import type { Dispatcher } from 'undici';
import { runtimeImport } from './runtime-import.js';

/** One HTTP exchange as the request pipeline sees it. */
export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** The caller's signal, if any; the transport stops when it aborts. */
  signal: AbortSignal | undefined;
  /** Time limit of this attempt, body included; exceeding it rejects with TransportTimeoutError. */
  timeoutMs: number;
}

export interface TransportResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** Reads the whole body; called exactly once per response. */
  text(): Promise<string>;
}

/** Sends one request; rejects only when no complete HTTP response arrived. */
export type Transport = (req: TransportRequest) => Promise<TransportResponse>;

/** The `fetch` signature the client accepts (global fetch, undici's fetch, msw-patched fetch...). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** A web handler (`(Request) => Promise<Response>`), e.g. the simulator's `handle`; no socket. */
export type WebHandler = (request: Request) => Promise<Response>;

/** An attempt ran out of time (whatever the HTTP stack underneath). */
export class TransportTimeoutError extends Error {
  override name = 'TransportTimeoutError';
}

type Undici = typeof import('undici');

// undici is loaded on the first request that needs it, not at import: it is the heaviest thing the
// client uses (about 520 kB minified, 165 kB gzip, and a large share of a cold import), and no
// bundler follows a runtimeImport. The trade-off: an installed package finds undici in
// node_modules and keeps the fast path (undici's request API, about half the per-call cost of
// fetch); a bundled bot carries none of it and sends through the runtime's global fetch, slower per
// call but with nothing to ship, as do runtimes without undici.
let undiciLoad: Promise<Undici | undefined> | undefined;

/** undici, loaded once per process; undefined where it cannot be loaded (a bundle, a web runtime). */
export function loadUndici(): Promise<Undici | undefined> {
  undiciLoad ??= runtimeImport<Undici & { default?: Undici }>('undici').then(
    // undici is CommonJS: from an ES module its exports are the namespace's default.
    (mod: Undici & { default?: Undici }) => mod.default ?? mod,
    () => undefined,
  );
  return undiciLoad;
}

let sharedAgent: Dispatcher | undefined;

/** One keep-alive connection pool per process, shared by every client that brings no dispatcher. */
function sharedDispatcher(undici: Undici): Dispatcher {
  sharedAgent ??= new undici.Agent({
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 600_000,
    connections: 128,
  });
  return sharedAgent;
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key in raw) {
    const value = raw[key];
    if (value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function headersOf(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

interface Abortable {
  abort(reason: unknown): void;
}

/**
 * Arms `target` to abort on the caller's signal or after `timeoutMs` (with TransportTimeoutError),
 * runs `send`, and keeps the deadline armed until the body has been read.
 */
function withDeadline<S extends Abortable>(
  req: TransportRequest,
  target: S,
  send: (signal: S) => Promise<TransportResponse>,
): Promise<TransportResponse> {
  const user = req.signal;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    target.abort(new TransportTimeoutError(`timed out after ${req.timeoutMs}ms`));
  }, req.timeoutMs);
  const onAbort = () => target.abort(user?.reason);
  if (user?.aborted) onAbort();
  else user?.addEventListener('abort', onAbort, { once: true });
  const done = () => {
    clearTimeout(timer);
    user?.removeEventListener('abort', onAbort);
  };
  const fail = (err: unknown): never => {
    done();
    if (!timedOut || err instanceof TransportTimeoutError) throw err;
    throw new TransportTimeoutError(`timed out after ${req.timeoutMs}ms`, { cause: err });
  };
  return send(target).then(
    (res) => ({
      status: res.status,
      headers: res.headers,
      text: () =>
        res.text().then((text) => {
          done();
          return text;
        }, fail),
    }),
    fail,
  );
}

const UNDICI_TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function fromUndici(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNDICI_TIMEOUTS.has(code)
    ? new TransportTimeoutError(code, { cause: err })
    : err;
}

type UndiciBody = Dispatcher.ResponseData['body'];

/**
 * One `undici.request` raced against its deadline; once the headers are in it is also the
 * response handed to the pipeline. A class rather than closures: the hot path allocates one object
 * and the timer calls back with it as an argument.
 */
class UndiciExchange implements TransportResponse {
  status = 0;
  headers: Record<string, string> = {};
  readonly #limit: number;
  readonly #timer: ReturnType<typeof setTimeout>;
  #expired = false;
  #body: UndiciBody | undefined;
  /** Rejects whatever the caller is waiting on now: the response, then its body. */
  #reject: ((err: unknown) => void) | undefined;

  constructor(limit: number) {
    this.#limit = limit;
    this.#timer = setTimeout(expireExchange, limit, this);
  }

  #timeoutError(): TransportTimeoutError {
    return new TransportTimeoutError(`timed out after ${this.#limit}ms`);
  }

  send(pending: Promise<Dispatcher.ResponseData>): Promise<TransportResponse> {
    return new Promise<TransportResponse>((resolve, reject) => {
      this.#reject = reject;
      pending.then(
        (res) => {
          if (this.#expired) {
            // The deadline already failed this attempt; free the connection.
            res.body.dump().catch(() => {});
            return;
          }
          this.status = res.statusCode;
          this.headers = flattenHeaders(res.headers);
          this.#body = res.body;
          resolve(this);
        },
        (err: unknown) => {
          clearTimeout(this.#timer);
          reject(fromUndici(err));
        },
      );
    });
  }

  text(): Promise<string> {
    const body = this.#body;
    if (body === undefined) return Promise.reject(new Error('text() before the response arrived'));
    if (this.#expired) {
      body.destroy();
      return Promise.reject(this.#timeoutError());
    }
    return new Promise<string>((resolve, reject) => {
      this.#reject = reject;
      body.text().then(
        (text) => {
          clearTimeout(this.#timer);
          resolve(text);
        },
        (err: unknown) => {
          clearTimeout(this.#timer);
          reject(fromUndici(err));
        },
      );
    });
  }

  expire(): void {
    this.#expired = true;
    this.#body?.destroy();
    this.#reject?.(this.#timeoutError());
  }
}

function expireExchange(exchange: UndiciExchange): void {
  exchange.expire();
}

/**
 * Transport over an undici dispatcher: `dispatcher.request`, which is what `undici.request` calls
 * after splitting the URL, so a given dispatcher (proxy, pool, MockAgent) needs no undici import.
 *
 * The deadline is a plain timer raced against the request, not an abort signal per call: signal
 * objects cost more than the rest of the client on a loopback round trip. undici's own header and
 * body timeouts (set to the same limit) then free a connection whose answer never came; a late
 * answer is drained. The caller's AbortSignal, when given, is passed through.
 */
export function undiciTransport(dispatcher: Dispatcher): Transport {
  return (req) => {
    const limit = Math.max(1, Math.ceil(req.timeoutMs));
    let pending: Promise<Dispatcher.ResponseData>;
    try {
      const url = new URL(req.url);
      pending = dispatcher.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body,
        signal: req.signal,
        headersTimeout: limit,
        bodyTimeout: limit,
      });
    } catch (err) {
      pending = Promise.reject(err);
    }
    return new UndiciExchange(limit).send(pending);
  };
}

/** Transport over a `fetch` function (for msw, which intercepts global fetch, or custom stacks). */
export function fetchTransport(fetchFn: FetchLike): Transport {
  return (req) =>
    withDeadline(req, new AbortController(), async (controller) => {
      const init: RequestInit = { method: req.method, headers: req.headers, signal: controller.signal };
      if (req.body !== undefined) init.body = req.body;
      const response = await fetchFn(req.url, init);
      return { status: response.status, headers: headersOf(response), text: () => response.text() };
    });
}

/** Transport that calls a web handler in-process (mock mode, createMockVenue). */
export function handlerTransport(handle: WebHandler): Transport {
  return fetchTransport((input, init) => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const pending = handle(new Request(input, init));
    if (!signal) return pending;
    // The handler does not watch the signal, so timeouts and aborts race it here.
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      pending.then(
        (r) => {
          signal.removeEventListener('abort', onAbort);
          resolve(r);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  });
}

// The fetch this process started with: a later replacement of `globalThis.fetch` is an interceptor
// (msw, nock 14, a test's spy) that only sees requests made through it.
const startupFetch: unknown = globalThis.fetch;
// @mswjs/interceptors (under msw and nock) registers an applied fetch interceptor on globalThis
// under this symbol, which also catches one set up before this module was loaded.
const MSW_FETCH_INTERCEPTOR = Symbol.for('fetch-interceptor');

/** True while something intercepts the global fetch (msw's `setupServer().listen()`, nock…). */
export function fetchIsIntercepted(): boolean {
  const global = globalThis as { fetch?: unknown; [MSW_FETCH_INTERCEPTOR]?: unknown };
  return global.fetch !== startupFetch || global[MSW_FETCH_INTERCEPTOR] !== undefined;
}

/**
 * What the default transport sends through once loaded: undici over the shared keep-alive pool,
 * or the global fetch where undici cannot be loaded (a bundle, Deno, an edge runtime).
 */
async function directTransport(viaGlobalFetch: Transport): Promise<Transport> {
  const undici = await loadUndici();
  if (!undici) return viaGlobalFetch;
  let dispatcher: Dispatcher;
  try {
    dispatcher = sharedDispatcher(undici);
  } catch {
    // An undici that loads but cannot make its pool (a broken install, a runtime's stand-in): its
    // error would fail this request, which never left, as if it might have landed, and every later
    // one with it (the load is kept).
    return viaGlobalFetch;
  }
  // Bun answers `import('undici')` with a stand-in of its own whose Agent has no request(): there
  // the runtime's native fetch is the direct path.
  return typeof dispatcher.request === 'function' ? undiciTransport(dispatcher) : viaGlobalFetch;
}

/**
 * The default transport: undici (the fast path, loaded on the first request), except while a
 * fetch interceptor is active, when requests go through the global fetch so that the interceptor
 * sees them. Checked per request: a suite's `server.listen()` usually runs after its clients are
 * made.
 */
export function defaultTransport(): Transport {
  const viaGlobalFetch = fetchTransport((input, init) => globalThis.fetch(input, init));
  const direct = lazyTransport(() => directTransport(viaGlobalFetch));
  return (req) => (fetchIsIntercepted() ? viaGlobalFetch(req) : direct(req));
}

/**
 * A transport resolved on first use (undici, mock mode's simulator). Once resolved, a request costs
 * one call: no promise hop for the load.
 */
export function lazyTransport(load: () => Promise<Transport>): Transport {
  let loaded: Transport | undefined;
  let loading: Promise<Transport> | undefined;
  return (req) => {
    if (loaded) return loaded(req);
    loading ??= load().then((transport) => {
      loaded = transport;
      return transport;
    });
    return loading.then((transport) => transport(req));
  };
}

const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

/** True when the error proves the request never left this machine (nothing could have run). */
export function neverSent(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_SENT_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
