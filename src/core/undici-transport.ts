import type { Dispatcher } from 'undici';
import { runtimeImport } from './runtime-import.js';
import { type Transport, type TransportResponse, TransportTimeoutError } from './transport.js';

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
export function sharedDispatcher(undici: Undici): Dispatcher {
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
