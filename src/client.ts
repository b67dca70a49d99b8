import type { Dispatcher } from 'undici';
import { SEEDED_API_KEYS } from './contract/api-key.js';
import { ClientCore, checkLimits, type RequestOptions } from './core/api-client.js';
import { ConfigurationError } from './core/error.js';
import { createLogger, type Logger, type LogLevelOption } from './core/logger.js';
import { defaultRetrySettings, type RetrySettings } from './core/retry.js';
import { type ClientEvents, isHeaderName, type ListenerOptions } from './core/telemetry/index.js';
import {
  defaultTransport,
  type FetchLike,
  fetchTransport,
  handlerTransport,
  lazyTransport,
  type Transport,
  undiciTransport,
  type WebHandler,
} from './core/transport.js';
import { DEFAULT_MAX_UNKNOWN_KEYS, DEFAULT_SETTLE_WINDOW_MS } from './core/unknown-keys.js';
import { type Environment, envLogLevel, resolveConfig } from './internal/config.js';
import { handlerWsUrl, loadMockBinding } from './internal/mock-mode.js';
import { Account } from './resources/account.js';
import { ConfigurationResource } from './resources/configuration.js';
import { Notifications } from './resources/notifications.js';
import { Orders } from './resources/orders.js';
import { Stream } from './resources/stream.js';
import { Subscriptions } from './resources/subscriptions.js';
import { Withdrawals } from './resources/withdrawals.js';
import { ClientState } from './state/index.js';

/** Options of {@link MatchVenue}; every one is optional where an environment variable can stand in. */
export interface MatchVenueOptions {
  /**
   * Platform API key (`TEST_API_KEY:…` / `LIVE_API_KEY:…`). Default: MATCH_VENUE_API_KEY; in mock
   * mode without either, the seeded burner's published test key `TEST_API_KEY:burner:sim`, so the
   * client acts as the simulator's seeded burner (`util.inspect(venue)` shows `actsAs: 'burner'`).
   * Pass `SEEDED.minter.apiKey` (from `match-venue/simulator`) to act as the minter.
   */
  apiKey?: string;
  /** REST base URL; https unless loopback. Default: MATCH_VENUE_BASE_URL, else the environment's. */
  baseUrl?: string;
  /** WebSocket base URL; wss unless loopback. Default: MATCH_VENUE_WS_URL, else derived from baseUrl. */
  wsUrl?: string;
  /**
   * The WebSocket subprotocol name the stream offers (beside `ticket.<jwt>`) and requires the
   * server to select. Default: MATCH_VENUE_WS_SUBPROTOCOL, else our spec's `service-match.v1`; the
   * venue's owner publishes the same protocol as `circle-match.v1`. Mock mode ignores it (its
   * simulator speaks `service-match.v1`), as it ignores base URLs.
   */
  wsSubprotocol?: string;
  /**
   * `production`, `sandbox`, or `mock` (an in-process simulator shared by every mock client of the
   * process; no socket). Default: MATCH_VENUE_ENV, else inferred from the key prefix.
   */
  environment?: Environment;
  /** Per-attempt time limit in ms. Default 30000. */
  timeout?: number;
  /** Budget in ms for one call across all its attempts and backoff waits. Default 60000. */
  totalTimeout?: number;
  /** Retries after the first attempt (connection errors, 408, 429, 5xx). Default 2. */
  maxRetries?: number;
  /**
   * Send every request through this fetch instead of undici. Not needed for msw: with neither
   * `fetch` nor `dispatcher` given, the client sends through the global fetch whenever an
   * interceptor replaced it (msw's `setupServer`, nock), and through undici otherwise.
   */
  fetch?: FetchLike;
  /** undici dispatcher (proxy, custom pool, MockAgent): always use undici with it, never the global fetch. */
  dispatcher?: Dispatcher;
  /**
   * Serve requests with an in-process web handler, e.g. a simulator's `handle` (no socket). The
   * client then reports environment `mock` and ignores the URL environment variables.
   */
  handler?: WebHandler;
  /** Where log lines go (console, pino, …). Secrets are redacted before they reach it. */
  logger?: Logger;
  /** Minimum level logged. Default: MATCH_VENUE_LOG_LEVEL, else `silent`, or `info` when a logger is given. */
  logLevel?: LogLevelOption;
  /** Backoff tuning and injectable sleep/random/clock. */
  retry?: Partial<RetrySettings>;
  /** Headers added to every request. */
  defaultHeaders?: Record<string, string>;
  /**
   * Check every success body against the API's schemas (default true), so a changed response
   * fails loudly as ResponseValidationError. false skips that work on hot paths and trusts the
   * server's shapes. Request parameters are always validated.
   */
  validateResponses?: boolean;
  /**
   * How long after an attempt that may have reached the venue its key's absence becomes final, in
   * ms. Until then a refusal of a call with that key is not definite (OutcomeUnknownError) and
   * `resolveUnknown` answers "absent for now". Default 60000: see README, Keeping state.
   */
  settleWindowMs?: number;
  /** Most keys with an unknown outcome remembered at once. Default 10000. */
  maxUnknownKeys?: number;
  /**
   * Header carrying the client request id, a UUID made per call and sent on every attempt (with
   * the attempt number in `x-client-attempt`), so even a call that never got an answer can be
   * found in the venue's logs; errors carry it as `clientRequestId`. Default `x-client-request-id`.
   */
  requestIdHeader?: string;
  /**
   * Send the active OpenTelemetry trace context as a W3C `traceparent` (and `tracestate`) header
   * on every attempt, so the venue's spans join the caller's trace. Needs `@opentelemetry/api` and
   * a registered provider; default false (nothing about the caller's traces leaves the process).
   */
  propagateTraceContext?: boolean;
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** The seeded simulator entity a mock-mode key belongs to, by its published test key. */
function seededEntity(apiKey: string): string | undefined {
  return Object.entries(SEEDED_API_KEYS).find(([, key]) => key === apiKey)?.[0];
}

/** `settleWindowMs` and `maxUnknownKeys`, named in a ConfigurationError when out of range. */
function checkLedgerOptions(options: MatchVenueOptions): void {
  const { settleWindowMs: window, maxUnknownKeys: max } = options;
  if (window !== undefined && !(typeof window === 'number' && Number.isFinite(window) && window >= 0))
    throw new ConfigurationError(
      `MatchVenue options: settleWindowMs must be a non-negative number of milliseconds, got ${String(window)}`,
    );
  if (max !== undefined && !(Number.isSafeInteger(max) && max >= 1))
    throw new ConfigurationError(
      `MatchVenue options: maxUnknownKeys must be a positive integer, got ${String(max)}`,
    );
}

/**
 * Client of the match venue REST API and the platform APIs it shares, with the venue's WebSocket
 * under `stream`. Every method returns an {@link APIPromise}; failures are {@link MatchVenueError}s
 * with a stable `kind`. The constructor throws ConfigurationError (kind `MV_INVALID_CONFIG`) for
 * options it cannot use and InvalidApiKeyError (kind `MV_INVALID_API_KEY`) for a malformed key,
 * before any request.
 *
 * @example
 * ```ts
 * import { MatchVenue, usd } from 'match-venue';
 *
 * const venue = new MatchVenue({ apiKey: process.env.MATCH_VENUE_API_KEY });
 * const account = await venue.account.retrieve();
 * console.log(account.stablecoin.available); // { amount: '…', currency: 'USD' }
 * ```
 */
export class MatchVenue extends ClientCore {
  /** Where the client sends its requests: `production`, `sandbox` or `mock`. */
  readonly environment: Environment;
  /** WebSocket base URL (undefined in mock mode until a stream needs the simulator to listen). */
  readonly wsUrl: string | undefined;
  /** In mock mode, the seeded entity whose key the client holds (for `util.inspect`). */
  readonly #actsAs: string | undefined;

  /** The caller's venue account: `account.retrieve()`, and `account.mirror()`, a live view of it. */
  readonly account: Account;
  /** Place, read, list, cancel and modify orders. */
  readonly orders: Orders;
  /** USD withdrawals from the venue. */
  readonly withdrawals: Withdrawals;
  /** Market and account events over the venue's WebSocket: `stream.connect()`. */
  readonly stream: Stream;
  /** Platform: `GET /v1/configuration` (also checks a key). */
  readonly configuration: ConfigurationResource;
  /** Platform: v1 (SNS) webhook subscriptions. */
  readonly subscriptions: Subscriptions;
  /** Platform: v2 webhook subscriptions and signing keys. */
  readonly notifications: Notifications;

  constructor(options: MatchVenueOptions = {}) {
    checkLimits(options, 'MatchVenue options');
    checkLedgerOptions(options);
    const idHeader = options.requestIdHeader;
    if (idHeader !== undefined && !(typeof idHeader === 'string' && isHeaderName(idHeader)))
      throw new ConfigurationError(
        `MatchVenue options: requestIdHeader must be an HTTP header name, got ${JSON.stringify(idHeader)}`,
      );
    const config = resolveConfig({ ...options, inProcess: options.handler !== undefined });
    let transport: Transport;
    if (options.handler) transport = handlerTransport(options.handler);
    else if (config.environment === 'mock') {
      // The testing layer binds mock mode to its shared simulator; the client sees only a handler.
      transport = lazyTransport(async () => {
        const binding = await loadMockBinding();
        return handlerTransport((req) => binding.handle(req));
      });
    } else if (options.fetch) transport = fetchTransport(options.fetch);
    else if (options.dispatcher) transport = undiciTransport(options.dispatcher);
    else transport = defaultTransport();

    const apiKey = config.apiKey;
    const logLevel = options.logLevel ?? envLogLevel() ?? (options.logger ? 'info' : 'silent');
    super({
      baseUrl: config.baseUrl,
      apiKey,
      transport,
      timeout: options.timeout ?? 30_000,
      totalTimeout: options.totalTimeout ?? 60_000,
      maxRetries: options.maxRetries ?? 2,
      retry: { ...defaultRetrySettings, ...options.retry },
      logger: createLogger(options.logger, logLevel, () => [apiKey]),
      defaultHeaders: options.defaultHeaders,
      validateResponses: options.validateResponses ?? true,
      settleWindowMs: options.settleWindowMs ?? DEFAULT_SETTLE_WINDOW_MS,
      maxUnknownKeys: options.maxUnknownKeys ?? DEFAULT_MAX_UNKNOWN_KEYS,
      requestIdHeader: idHeader,
      propagateTraceContext: options.propagateTraceContext,
    });
    this.environment = config.environment;
    this.wsUrl = config.wsUrl;
    // A mock client made without a key is the seeded burner; saying so spares a reader the hunt.
    this.#actsAs = config.environment === 'mock' ? seededEntity(apiKey) : undefined;
    // Shared by the resources that keep state: open mirrors and streams, withdrawals created.
    const state = new ClientState();
    this.orders = new Orders(this, state);
    this.withdrawals = new Withdrawals(this, state);
    // Mock mode streams from the shared simulator, which listens on loopback only once asked; a
    // createMockVenue client, from its own simulator, the same way (its handler says where).
    const mockWs = options.handler
      ? handlerWsUrl(options.handler)
      : config.environment === 'mock'
        ? () => loadMockBinding().then((binding) => binding.wsUrl())
        : undefined;
    this.stream = new Stream(this, this.orders, () => this.wsUrl ?? mockWs, config.wsSubprotocol, state);
    this.account = new Account(this, { orders: this.orders, stream: this.stream, state });
    this.configuration = new ConfigurationResource(this);
    this.subscriptions = new Subscriptions(this);
    this.notifications = new Notifications(this);
  }

  /**
   * Whether the platform accepts this client's API key (`GET /v1/configuration`): false on a 401,
   * true on success; any other failure is thrown, since it says nothing about the key.
   */
  verifyApiKey(options?: RequestOptions): Promise<boolean> {
    return this.configuration.verifyApiKey(options);
  }

  /**
   * Calls `listener` for every HTTP attempt of this client's calls: `request` as it is sent,
   * `response` as it ends (with its status, or the failure standing for one), `retry` when a retry
   * is decided. Events carry timing, status, the client request id and the attempt, redacted;
   * bodies only with `{ body: true }`. A listener that throws is logged and never breaks a call.
   * Returns the function that removes the listener.
   *
   * @example
   * ```ts
   * venue.on('response', (e) => console.log(e.name, e.attempt, e.status, `${e.durationMs.toFixed(1)} ms`));
   * venue.on('retry', (e) => console.warn(`${e.name} retry ${e.nextAttempt} in ${e.delayMs} ms`, e.reason));
   * ```
   */
  on<E extends keyof ClientEvents>(
    event: E,
    listener: (event: ClientEvents[E]) => void,
    options?: ListenerOptions,
  ): () => void {
    return this.telemetry.hooks.on(event, listener, options);
  }

  /**
   * What `util.inspect` and `console.log` show: never the API key.
   * @internal
   */
  [INSPECT](): string {
    const actsAs = this.#actsAs === undefined ? '' : `, actsAs: '${this.#actsAs}'`;
    return `MatchVenue { environment: '${this.environment}', baseUrl: '${this.baseUrl}'${actsAs} }`;
  }

  /** What JSON.stringify shows: never the API key. */
  toJSON(): {
    /** As {@link MatchVenue.environment}. */
    environment: Environment;
    /** As {@link MatchVenue.baseUrl}. */
    baseUrl: string;
    /** As {@link MatchVenue.wsUrl}. */
    wsUrl: string | undefined;
  } {
    return { environment: this.environment, baseUrl: this.baseUrl, wsUrl: this.wsUrl };
  }
}
