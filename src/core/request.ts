import type { OperationId } from '../generated/endpoints.js';
import type { WithResponse } from './api-promise.js';
import type { APIError } from './error.js';
import type { Schema } from './validation.js';

/**
 * The methods a request can use.
 * Not exported by any entry (left in the published types where a declaration needs it).
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

/**
 * A query parameter's value; null and undefined are left out of the URL.
 * Not exported by any entry (left in the published types where a declaration needs it).
 */
export type QueryValue = string | number | boolean | null | undefined;

/** Per-call options every method accepts as its last argument. */
export interface RequestOptions {
  /** Aborts the call (every attempt and any backoff wait) -> APIUserAbortError. */
  signal?: AbortSignal;
  /** Per-attempt time limit in ms. */
  timeout?: number;
  /** Budget in ms for the whole call, retries and waits included. */
  totalTimeout?: number;
  /** Retries after the first attempt. */
  maxRetries?: number;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

/**
 * Everything the pipeline needs to send one request and parse its answer.
 * Not exported by any entry (left in the published types where a declaration needs it).
 */
export interface FinalRequest<T> extends RequestOptions {
  /** The HTTP method. */
  method: HttpMethod;
  /** Path below the base URL; build it with the `path` tag when it holds values. */
  path: string;
  /** Query parameters; undefined and null values are left out. */
  query?: Record<string, QueryValue> | undefined;
  /** The JSON body. */
  body?: unknown;
  /** The endpoint table's path template (`/v1/match/orders/{id}`): spans' `url.template`. */
  template?: string | undefined;
  /** The endpoint table's operation, named in an OutcomeUnknownError. */
  operation?: OperationId | undefined;
  /**
   * Whether the request may be sent again after an attempt that may have reached the server (the
   * table's `idempotent`). When false, such an attempt ends the call as OutcomeUnknownError.
   * Default true (the internal reads sent without the table).
   */
  idempotent?: boolean | undefined;
  /**
   * Idempotency key carried in `body`: every attempt sends it, an ambiguous failure ends as
   * OutcomeUnknownError, and the client's ledger of unknown keys decides whether a refusal is definite.
   */
  idempotencyKey?: string | undefined;
  /** The generated check of the `data` member of the success body. */
  responseSchema: Schema<T>;
  /** Set for calls whose retry can be refused because an earlier attempt landed: see RefusalSettler. */
  settleRefusal?: RefusalSettler<T> | undefined;
}

/**
 * Called when an attempt is refused (an APIError) after an earlier attempt may have reached the
 * server: reads the server's state and resolves the answer the call stands for when the earlier
 * attempt had landed (orders.modify: the order already has the requested fee), or undefined to let
 * the refusal stand. It is never called for a refusal with nothing ambiguous before it.
 */
export type RefusalSettler<T> = (refusal: APIError) => Promise<WithResponse<T> | undefined>;

/** `baseUrl` + `path`, with the query's defined values as a query string. */
export function requestUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): string {
  let url = baseUrl + path;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) params.append(key, String(value));
    }
    const qs = params.toString();
    if (qs) url += `?${qs}`;
  }
  return url;
}
