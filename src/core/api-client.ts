import { VERSION } from '../generated/version.js';
import { APIPromise, type RawResponse } from './api-promise.js';
import { abortError, answersForKey, attemptOnce, finalError } from './attempt.js';
import {
  type EndpointCall,
  type EndpointData,
  type EndpointDefinition,
  endpointRequest,
} from './endpoint.js';
import { APIConnectionTimeoutError } from './error.js';
import type { Logger, LogLevel } from './logger.js';
import { Page, PagePromise, type PaginationInfo } from './pagination.js';
import { type FinalRequest, type QueryValue, type RequestOptions, requestUrl } from './request.js';
import { recordingOnFirstUse } from './record-load.js';
import type { Recorder } from './recorder.js';
import { type Failure, successData } from './response.js';
import { backoffDelay, type RetrySettings } from './retry.js';
import { settleRefusal } from './settle-refusal.js';
import { type CallTrace, ClientTelemetry } from './telemetry/index.js';
import type { Transport } from './transport.js';
import { UnknownKeys } from './unknown-keys.js';

export type { EndpointCall, EndpointData } from './endpoint.js';
export type { FinalRequest, HttpMethod, QueryValue, RequestOptions } from './request.js';

/**
 * What the pipeline is built from: MatchVenue's options as client/config.ts resolved them, every
 * default applied (the pipeline defines none).
 * Not exported by any entry (left in the published types where a declaration needs it).
 */
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
  /** Parse success bodies with their schemas; false trusts the server's shapes. */
  validateResponses: boolean;
  /** How long after its last ambiguous attempt a key's absence is final (core/unknown-keys.ts). */
  settleWindowMs: number;
  /** Most unsettled keys remembered. */
  maxUnknownKeys: number;
  /** Header of the client request id sent on every attempt. */
  requestIdHeader: string;
  /** Send the active trace context as `traceparent` on every attempt (core/telemetry). */
  propagateTraceContext: boolean;
  /** Where this client's exchanges are recorded (the `record` option); absent when not recording. */
  recorder?: Recorder | undefined;
  /**
   * Refuses a call's own `timeout`, `totalTimeout` or `maxRetries` that the pipeline cannot honour
   * (InvalidArgumentError): the client options' rules, which live with them in client/config.ts.
   */
  checkCallLimits: (limits: RequestOptions, call: { method: string; path: string }) => void;
}

// Node fires timers longer than 2^31-1 ms at once; "no limit" is capped to that instead.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The request pipeline: URL building, auth, per-attempt timeouts, retries with backoff and
 * Retry-After, a total budget, user aborts, error mapping and response parsing. Resources are
 * thin calls over `endpoint()` / `endpointPage()`, which take each operation's facts from the table.
 */
export class ClientCore {
  /** The REST base URL, without a trailing slash. */
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #transport: Transport;
  readonly #options: ClientCoreOptions;
  readonly #headers: Record<string, string>;
  /**
   * Idempotency keys whose outcome is unknown, until an answer about the key or the settle window
   * settles them; a refusal meeting such a key is not definite.
   * @internal
   */
  readonly unknownKeys: UnknownKeys;
  /**
   * Request ids, hooks, diagnostics channels and OpenTelemetry spans of this client's calls.
   * @internal
   */
  readonly telemetry: ClientTelemetry;
  /** Where this client's exchanges (its stream's too) are recorded, when it records. @internal */
  readonly recorder: Recorder | undefined;

  constructor(options: ClientCoreOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.recorder = options.recorder;
    // Only a recording client has the recording transport (loaded by its first attempt): one that
    // does not pays nothing for it.
    this.#transport = options.recorder
      ? recordingOnFirstUse(options.transport, options.recorder, this.baseUrl)
      : options.transport;
    this.#options = options;
    this.unknownKeys = new UnknownKeys({
      settleWindowMs: options.settleWindowMs,
      maxKeys: options.maxUnknownKeys,
      now: options.retry.now,
      onEvict: (entry) =>
        options.logger.warn(
          `forgot the unknown outcome of ${entry.operation} key ${entry.key}: more than ${options.maxUnknownKeys} keys are unsettled`,
        ),
    });
    this.telemetry = new ClientTelemetry({
      baseUrl: this.baseUrl,
      requestIdHeader: options.requestIdHeader,
      propagateTraceContext: options.propagateTraceContext,
      secrets: () => this.#secrets(),
      logger: () => options.logger,
    });
    this.#headers = {
      accept: 'application/json',
      'user-agent': `match-venue-node/${VERSION}`,
      ...options.defaultHeaders,
      authorization: `Bearer ${options.apiKey}`,
    };
  }

  /** The transport every attempt goes through (for the SDK's tests). @internal */
  get transport(): Transport {
    return this.#transport;
  }

  /** The logger the client writes to: the `logger` option filtered by `logLevel`, secrets redacted. */
  get logger(): Logger {
    return this.#options.logger;
  }

  /** Secrets to scrub from anything logged (the API key). */
  #secrets(): readonly string[] {
    return [this.#apiKey];
  }

  /**
   * Sends a request and returns an APIPromise of the parsed `data`.
   * @internal
   */
  request<T>(req: FinalRequest<T>): APIPromise<T> {
    return new APIPromise(this.#execute(req), (raw) => this.#parse(req, raw));
  }

  /**
   * Sends one operation of the endpoint table (generated/endpoints.ts): method, path, query and
   * body checks, and response check come from `def`; `call` holds the caller's values, checked
   * against those checks before anything is sent. Bad input (a ValidationError naming each field
   * and rule, an empty path parameter, a limit out of range) becomes a rejected APIPromise.
   *
   *     this.client.endpoint(operations.cancelOrder, { context: 'orders.cancel params', body }, options)
   *
   * @internal
   */
  endpoint<D extends EndpointDefinition>(
    def: D,
    call: EndpointCall<D>,
    options?: RequestOptions,
  ): APIPromise<EndpointData<D>> {
    let req: FinalRequest<EndpointData<D>>;
    try {
      req = endpointRequest(def, call, options);
      this.#options.checkCallLimits(req, req);
    } catch (error) {
      return APIPromise.rejected(error);
    }
    return this.request(req);
  }

  /**
   * Like `endpoint`, for a list operation (its data holds `pagination`): `items` picks the page's
   * items out of the data, and the Page fetches the following pages with the same query.
   *
   * @internal
   */
  endpointPage<D extends EndpointDefinition, T>(
    def: D,
    call: EndpointCall<D>,
    items: (data: EndpointData<D>) => T[],
    options?: RequestOptions,
  ): PagePromise<T> {
    type Paged = FinalRequest<EndpointData<D> & { pagination: PaginationInfo }>;
    return this.#callPage(
      () => endpointRequest(def, call, options) as Paged & { query: Record<string, QueryValue> },
      items,
    );
  }

  /**
   * Builds and sends a list request; anything `build` throws (a ValidationError from checking
   * params) becomes a rejected PagePromise, so bad input never reaches the network.
   */
  #callPage<T, Body extends { pagination: PaginationInfo }>(
    build: () => FinalRequest<Body> & { query: Record<string, QueryValue> },
    items: (body: Body) => T[],
  ): PagePromise<T> {
    let req: FinalRequest<Body> & { query: Record<string, QueryValue> };
    try {
      req = build();
      this.#options.checkCallLimits(req, req);
    } catch (error) {
      return PagePromise.rejectedPage(error);
    }
    return this.#requestPage(req, items);
  }

  /** A list request whose response is `{ [itemsKey]: T[], pagination }`, as a Page. */
  #requestPage<T, Body extends { pagination: PaginationInfo }>(
    req: FinalRequest<Body> & { query: Record<string, QueryValue> },
    items: (body: Body) => T[],
  ): PagePromise<T> {
    const fetchPage = (page: number): PagePromise<T> =>
      this.#requestPage({ ...req, query: { ...req.query, page } }, items);
    return new PagePromise(this.#execute(req), (raw) => {
      const body = this.#parse(req, raw);
      return new Page(items(body), body.pagination, fetchPage);
    });
  }

  #buildUrl(path: string, query?: Record<string, QueryValue>): string {
    return requestUrl(this.baseUrl, path, query);
  }

  #parse<T>(req: FinalRequest<T>, raw: RawResponse): T {
    return successData(raw, req.responseSchema, this.#options.validateResponses, req);
  }

  /** One call: its attempts (#send), observed by whatever listens (core/telemetry/call.ts). */
  #execute<T>(req: FinalRequest<T>): Promise<RawResponse> {
    const call = this.telemetry.begin(req, this.baseUrl);
    return call.run(() => this.#send(req, call));
  }

  async #send<T>(req: FinalRequest<T>, call: CallTrace): Promise<RawResponse> {
    const opts = this.#options;
    const retry = opts.retry;
    const maxRetries = req.maxRetries ?? opts.maxRetries;
    const timeout = req.timeout ?? opts.timeout;
    const deadline = retry.now() + (req.totalTimeout ?? opts.totalTimeout);
    const url = this.#buildUrl(req.path, req.query);
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
    const key = req.idempotencyKey;
    const idempotent = req.idempotent !== false;

    // A key whose earlier call had an attempt that may still land starts out ambiguous: a refusal
    // this call meets says nothing about that attempt.
    let ambiguous = key !== undefined && this.unknownKeys.get(key) !== undefined;
    let settlesAt = 0;
    let attempt = 0;
    const callHeaders = headers;
    for (;;) {
      attempt++;
      const remaining = deadline - retry.now();
      let failure: Failure;
      if (req.signal?.aborted) {
        failure = { error: abortError(req), retryable: false, ambiguous: false };
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
        // Every attempt names the call's request id and its number, and is observed.
        headers = call.attemptHeaders(callHeaders, attempt);
        const outcome = await attemptOnce(
          { transport: this.#transport, secrets: this.#secrets(), retry: this.#options.retry },
          req,
          url,
          headers,
          body,
          Math.min(timeout, remaining, MAX_TIMER_MS),
          timeout < remaining,
          attempt,
        );
        call.attemptEnded(outcome);
        if ('raw' in outcome) {
          // A success is the answer about the key: the object it made, or its replay.
          if (key !== undefined) this.unknownKeys.settle(key);
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
      if (failure.ambiguous) {
        ambiguous = true;
        settlesAt =
          key === undefined
            ? this.unknownKeys.settlesAt()
            : this.unknownKeys.markAmbiguous(key, req.operation ?? req.path, req.body).settlesAt;
      } else if (key !== undefined && answersForKey(failure.error)) this.unknownKeys.settle(key);

      // An operation that is not safe to re-send is sent once more only when the failed attempt
      // certainly never reached the server.
      const resendable = idempotent || !failure.ambiguous;
      const retriesLeft = attempt <= maxRetries;
      if (failure.retryable && retriesLeft && resendable) {
        const delay = failure.retryAfterMs ?? backoffDelay(attempt - 1, retry);
        if (retry.now() + delay < deadline) {
          call.retrying(failure, delay);
          log.warn(
            `${req.method} ${req.path} failed (${failure.error.message.split('\n')[0]}); retry ${attempt} of ${maxRetries} in ${delay}ms`,
          );
          try {
            await retry.sleep(delay, req.signal);
          } catch {
            throw finalError(
              this.unknownKeys,
              req,
              { error: abortError(req), retryable: false, ambiguous: false },
              ambiguous,
              attempt,
              settlesAt,
            );
          }
          continue;
        }
      }
      const settled = await settleRefusal(req, failure, ambiguous, log, attempt);
      if (settled) return settled;
      // Answers meant for the caller (4xx) are theirs to handle; exhausted retries deserve a warning.
      const level = failure.retryable ? 'warn' : 'debug';
      log[level](
        `${req.method} ${req.path} failed after ${attempt} attempt(s): ${failure.error.message.split('\n')[0]}`,
      );
      throw finalError(this.unknownKeys, req, failure, ambiguous, attempt, settlesAt);
    }
  }
}
