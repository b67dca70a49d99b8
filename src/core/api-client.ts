import type { z } from 'zod';
import { ErrorCode } from '../generated/errors.js';
import { VERSION } from '../internal/version.js';
import { APIPromise, type RawResponse } from './api-promise.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  type APIError,
  type APIErrorDetail,
  APIUserAbortError,
  ConfigurationError,
  InvalidArgumentError,
  MatchVenueError,
  makeAPIError,
  OutcomeUnknownError,
  ResponseValidationError,
  type UnknownOutcomeOperation,
} from './error.js';
import { type Logger, type LogLevel, redact, redactText } from './logger.js';
import { Page, PagePromise, type PaginationInfo } from './pagination.js';
import { backoffDelay, isRetryableStatus, type RetrySettings, retryAfterDelay } from './retry.js';
import { neverSent, type Transport, type TransportResponse, TransportTimeoutError } from './transport.js';
import { toValidationIssues } from './validation.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

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

export interface FinalRequest<T> extends RequestOptions {
  method: HttpMethod;
  /** Path below the base URL; build it with the `path` tag when it holds values. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  body?: unknown;
  /** Idempotency key carried in `body`; marks the call so an ambiguous failure is reported as such. */
  idempotencyKey?: string | undefined;
  /** Set for calls that create something (place, withdrawal): failures after the request may have
   *  reached the server become OutcomeUnknownError. */
  outcome?: UnknownOutcomeOperation | undefined;
  /** Schema of the `data` member of the success body. */
  responseSchema: z.ZodType<T>;
}

export interface ClientCoreOptions {
  baseUrl: string;
  apiKey: string;
  transport: Transport;
  timeout: number;
  totalTimeout: number;
  maxRetries: number;
  retry: RetrySettings;
  logger: Logger & { enabled(level: LogLevel): boolean };
  defaultHeaders?: Record<string, string>;
  /** Parse success bodies with their schemas (default true); false trusts the server's shapes. */
  validateResponses?: boolean;
}

interface Failure {
  error: MatchVenueError;
  retryable: boolean;
  /** The request may have been processed by the server. */
  ambiguous: boolean;
  retryAfterMs?: number | undefined;
}

const REQUEST_ID = 'x-request-id';
// Node fires timers longer than 2^31-1 ms at once; "no limit" is capped to that instead.
const MAX_TIMER_MS = 2 ** 31 - 1;

type Limits = { timeout?: number; totalTimeout?: number; maxRetries?: number };

/**
 * Rejects option values the pipeline cannot honour, naming the option: a ConfigurationError for the
 * client's options (`where` names them), an InvalidArgumentError for one call's (`where` is the call).
 */
export function checkLimits(limits: Limits, where: string | { method: string; path: string }) {
  // The common case (no per-call limits) costs three reads.
  if (limits.timeout === undefined && limits.totalTimeout === undefined && limits.maxRetries === undefined) {
    return;
  }
  const place = () => (typeof where === 'string' ? where : `${where.method} ${where.path}`);
  const Refusal = typeof where === 'string' ? ConfigurationError : InvalidArgumentError;
  for (const name of ['timeout', 'totalTimeout'] as const) {
    const value = limits[name];
    if (value !== undefined && !(typeof value === 'number' && value > 0)) {
      throw new Refusal(
        `${place()}: ${name} must be a positive number of milliseconds, got ${String(value)}`,
      );
    }
  }
  const retries = limits.maxRetries;
  if (retries !== undefined && !(Number.isSafeInteger(retries) && retries >= 0)) {
    throw new Refusal(`${place()}: maxRetries must be a non-negative integer, got ${String(retries)}`);
  }
}

/** 409 137004: the key is held by a different request, so this call's request never became it. */
function answersForKey(error: MatchVenueError): boolean {
  const apiError = error as Partial<APIError>;
  return apiError.status === 409 && apiError.code === ErrorCode.IdempotencyKeyReused;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The request pipeline: URL building, auth, per-attempt timeouts, retries with backoff and
 * Retry-After, a total budget, user aborts, error mapping and response parsing. Resources are
 * one-liners over `request()` / `requestPage()`.
 */
export class ClientCore {
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #transport: Transport;
  readonly #options: ClientCoreOptions;
  readonly #headers: Record<string, string>;

  constructor(options: ClientCoreOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#transport = options.transport;
    this.#options = options;
    this.#headers = {
      accept: 'application/json',
      'user-agent': `match-venue-node/${VERSION}`,
      ...options.defaultHeaders,
      authorization: `Bearer ${options.apiKey}`,
    };
  }

  get logger(): Logger {
    return this.#options.logger;
  }

  /** Secrets to scrub from anything logged (the API key). */
  protected secrets(): readonly string[] {
    return [this.#apiKey];
  }

  /** Sends a request and returns an APIPromise of the parsed `data`. */
  request<T>(req: FinalRequest<T>): APIPromise<T> {
    return new APIPromise(this.#execute(req), (raw) => this.#parse(req, raw));
  }

  /**
   * Builds and sends a request; anything `build` throws (a ValidationError from checking params)
   * becomes a rejected APIPromise, so bad input never reaches the network.
   */
  call<T>(build: () => FinalRequest<T>): APIPromise<T> {
    let req: FinalRequest<T>;
    try {
      req = build();
      checkLimits(req, req);
    } catch (error) {
      return APIPromise.rejected(error);
    }
    return this.request(req);
  }

  /** Like `call`, for list endpoints: see `requestPage`. */
  callPage<T, Body extends { pagination: PaginationInfo }>(
    build: () => FinalRequest<Body> & { query: Record<string, QueryValue> },
    items: (body: Body) => T[],
  ): PagePromise<T> {
    let req: FinalRequest<Body> & { query: Record<string, QueryValue> };
    try {
      req = build();
      checkLimits(req, req);
    } catch (error) {
      return PagePromise.rejectedPage(error);
    }
    return this.requestPage(req, items);
  }

  /** A list request whose response is `{ [itemsKey]: T[], pagination }`, as a Page. */
  requestPage<T, Body extends { pagination: PaginationInfo }>(
    req: FinalRequest<Body> & { query: Record<string, QueryValue> },
    items: (body: Body) => T[],
  ): PagePromise<T> {
    const fetchPage = (page: number): PagePromise<T> =>
      this.requestPage({ ...req, query: { ...req.query, page } }, items);
    return new PagePromise(this.#execute(req), (raw) => {
      const body = this.#parse(req, raw);
      return new Page(items(body), body.pagination, fetchPage);
    });
  }

  buildUrl(path: string, query?: Record<string, QueryValue>): string {
    let url = this.baseUrl + path;
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

  #parse<T>(req: FinalRequest<T>, raw: RawResponse): T {
    const body = parseJson(raw.bodyText);
    const envelope = body !== null && typeof body === 'object' && 'data' in body ? body.data : undefined;
    if (this.#options.validateResponses === false) return envelope as T;
    const result = req.responseSchema.safeParse(envelope);
    if (result.success) return result.data;
    throw new ResponseValidationError(
      `Unexpected response body for ${req.method} ${req.path}`,
      raw.requestId,
      toValidationIssues(result.error),
    );
  }

  async #execute<T>(req: FinalRequest<T>): Promise<RawResponse> {
    const opts = this.#options;
    const retry = opts.retry;
    const maxRetries = req.maxRetries ?? opts.maxRetries;
    const timeout = req.timeout ?? opts.timeout;
    const deadline = retry.now() + (req.totalTimeout ?? opts.totalTimeout);
    const url = this.buildUrl(req.path, req.query);
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    // The shared header object is reused as is for the common case (a GET without extra headers);
    // transports only read it.
    let headers = this.#headers;
    if (body !== undefined || req.headers) {
      headers = {
        ...this.#headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...req.headers,
      };
    }
    const log = opts.logger;

    let ambiguous = false;
    let attempt = 0;
    for (;;) {
      attempt++;
      const remaining = deadline - retry.now();
      let failure: Failure;
      if (req.signal?.aborted) {
        failure = { error: this.#abortError(req), retryable: false, ambiguous: false };
      } else if (remaining <= 0) {
        failure = {
          error: new APIConnectionTimeoutError(
            `Request exceeded its total time budget of ${req.totalTimeout ?? opts.totalTimeout}ms.`,
          ),
          retryable: false,
          ambiguous: false,
        };
      } else {
        const started = log.enabled('debug') ? performance.now() : 0;
        const outcome = await this.#attempt(
          req,
          url,
          headers,
          body,
          Math.min(timeout, remaining, MAX_TIMER_MS),
          timeout < remaining,
        );
        if ('raw' in outcome) {
          if (started) {
            log.debug(`${req.method} ${req.path} -> ${outcome.raw.status}`, {
              attempt,
              ms: Math.round(performance.now() - started),
              requestId: outcome.raw.requestId,
            });
          }
          return outcome.raw;
        }
        failure = outcome;
      }
      ambiguous ||= failure.ambiguous;

      const retriesLeft = attempt <= maxRetries;
      if (failure.retryable && retriesLeft) {
        const delay = failure.retryAfterMs ?? backoffDelay(attempt - 1, retry);
        if (retry.now() + delay < deadline) {
          log.warn(
            `${req.method} ${req.path} failed (${failure.error.message.split('\n')[0]}); retry ${attempt} of ${maxRetries} in ${delay}ms`,
          );
          try {
            await retry.sleep(delay, req.signal);
          } catch {
            throw this.#finalError(
              req,
              { error: this.#abortError(req), retryable: false, ambiguous: false },
              ambiguous,
              attempt,
            );
          }
          continue;
        }
      }
      // Answers meant for the caller (4xx) are theirs to handle; exhausted retries deserve a warning.
      const level = failure.retryable ? 'warn' : 'debug';
      log[level](
        `${req.method} ${req.path} failed after ${attempt} attempt(s): ${failure.error.message.split('\n')[0]}`,
      );
      throw this.#finalError(req, failure, ambiguous, attempt);
    }
  }

  #abortError(req: FinalRequest<unknown>): APIUserAbortError {
    return new APIUserAbortError('Request was aborted.', {
      cause: req.signal?.reason,
      idempotencyKey: req.idempotencyKey,
    });
  }

  #finalError(
    req: FinalRequest<unknown>,
    failure: Failure,
    ambiguous: boolean,
    attempts: number,
  ): MatchVenueError {
    if (!req.outcome || !req.idempotencyKey || !ambiguous) return failure.error;
    if (failure.error instanceof APIUserAbortError) return failure.error;
    // Once an earlier attempt may have reached the venue, a later attempt's refusal only says what
    // that attempt met (a cap that filled meanwhile, say): the earlier one can still be in flight
    // and land after it. Only an answer about the key itself settles the outcome.
    if (answersForKey(failure.error)) return failure.error;
    return new OutcomeUnknownError({
      operation: req.outcome,
      idempotencyKey: req.idempotencyKey,
      attempts,
      request: req.body,
      cause: failure.error,
    });
  }

  async #attempt(
    req: FinalRequest<unknown>,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    limitMs: number,
    limitIsPerAttempt: boolean,
  ): Promise<{ raw: RawResponse } | Failure> {
    let response: TransportResponse | undefined;
    try {
      response = await this.#transport({
        method: req.method,
        url,
        headers,
        body,
        signal: req.signal,
        timeoutMs: limitMs,
      });
      const text = await response.text();
      return this.#classify(response, text);
    } catch (cause) {
      if (req.signal?.aborted) return { error: this.#abortError(req), retryable: false, ambiguous: false };
      if (cause instanceof TransportTimeoutError) {
        const what = limitIsPerAttempt ? `timed out after ${limitMs}ms` : `exceeded its total time budget`;
        return {
          error: new APIConnectionTimeoutError(`${req.method} ${req.path} ${what}.`, { cause }),
          retryable: true,
          ambiguous: true,
        };
      }
      if (cause instanceof MatchVenueError) return { error: cause, retryable: false, ambiguous: false };
      const detail = redactText(cause instanceof Error ? cause.message : String(cause), this.secrets());
      return {
        error: new APIConnectionError(`Connection error on ${req.method} ${req.path}: ${detail}`, { cause }),
        retryable: true,
        // A response that arrived but whose body broke off was certainly processed.
        ambiguous: response !== undefined || !neverSent(cause),
      };
    }
  }

  #classify(response: TransportResponse, text: string): { raw: RawResponse } | Failure {
    const requestId = response.headers[REQUEST_ID];
    if (response.status >= 200 && response.status < 300) {
      return { raw: { status: response.status, headers: response.headers, requestId, bodyText: text } };
    }
    // A server that echoes the credential back must not put it into an error message or log line.
    const parsed = redact(parseJson(text), this.secrets());
    const obj =
      parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
    const code = typeof obj?.code === 'number' ? obj.code : undefined;
    const serverMessage =
      typeof obj?.message === 'string' ? obj.message : text ? text.slice(0, 500) : undefined;
    const errors = Array.isArray(obj?.errors) ? (obj.errors as APIErrorDetail[]) : undefined;
    const error = makeAPIError({
      status: response.status,
      code,
      serverMessage,
      requestId,
      headers: response.headers,
      errors,
      body: parsed ?? redactText(text, this.secrets()),
      secrets: this.secrets(),
    });
    const retryable = isRetryableStatus(response.status);
    return {
      error,
      retryable,
      // 408 and 5xx may come after the work was done; 429 and other 4xx mean it was refused.
      ambiguous: response.status === 408 || response.status >= 500,
      retryAfterMs: retryable ? retryAfterDelay(response.headers, this.#options.retry) : undefined,
    };
  }
}
