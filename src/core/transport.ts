// What a transport is: one HTTP exchange as the pipeline sees it, and the two failures it tells
// apart (a timeout, a request that never left). The transports themselves: fetch-transport.ts
// (fetch and in-process handlers), undici-transport.ts, and default-transport.ts, which picks.

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
  /** Which attempt of its call this is: 1, then 2 for the first retry... (what a recording writes). */
  attempt?: number;
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
