import { Agent, type Dispatcher, request as undiciRequest } from 'undici';

/** One HTTP exchange as the request pipeline sees it. */
export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal;
}

export interface TransportResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** Reads the whole body; called exactly once per response. */
  text(): Promise<string>;
}

/** Sends one request; rejects only when no HTTP response arrived. */
export type Transport = (req: TransportRequest) => Promise<TransportResponse>;

/** The `fetch` signature the client accepts (global fetch, undici's fetch, msw-patched fetch...). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

let sharedAgent: Agent | undefined;

/** One keep-alive connection pool per process, shared by every client that brings no dispatcher. */
export function sharedDispatcher(): Agent {
  sharedAgent ??= new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, connections: 128 });
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

/** Default transport: `undici.request` over a keep-alive Agent (or the dispatcher given). */
export function undiciTransport(dispatcher?: Dispatcher): Transport {
  return async (req) => {
    const res = await undiciRequest(req.url, {
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body,
      signal: req.signal,
      dispatcher: dispatcher ?? sharedDispatcher(),
    });
    return { status: res.statusCode, headers: flattenHeaders(res.headers), text: () => res.body.text() };
  };
}

function headersOf(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

/** Transport over a `fetch` function (for msw, which intercepts global fetch, or custom stacks). */
export function fetchTransport(fetchFn: FetchLike): Transport {
  return async (req) => {
    const init: RequestInit = { method: req.method, headers: req.headers, signal: req.signal };
    if (req.body !== undefined) init.body = req.body;
    const response = await fetchFn(req.url, init);
    return { status: response.status, headers: headersOf(response), text: () => response.text() };
  };
}

/** A web handler (`(Request) => Promise<Response>`), e.g. the simulator's `handle`; no socket. */
export type WebHandler = (request: Request) => Promise<Response>;

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

/** A transport resolved on first use (mock mode loads the simulator lazily). */
export function lazyTransport(load: () => Promise<Transport>): Transport {
  let loaded: Promise<Transport> | undefined;
  return async (req) => {
    loaded ??= load();
    return (await loaded)(req);
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
