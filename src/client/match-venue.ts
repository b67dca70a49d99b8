import { SEEDED_API_KEYS } from '../contract/api-key.js';
import { ClientCore, type RequestOptions } from '../core/api-client.js';
import { ConfigurationError } from '../core/error.js';
import type { APIPromise } from '../core/api-promise.js';
import { createLogger } from '../core/logger.js';
import type { ClientEvents, ListenerOptions } from '../core/telemetry/index.js';
import { defaultTransport, lazyTransport } from '../core/default-transport.js';
import { fetchTransport, handlerTransport } from '../core/fetch-transport.js';
import { keyIdOf, Recorder } from '../core/recorder.js';
import type { Transport } from '../core/transport.js';
import { undiciTransport } from '../core/undici-transport.js';
import { Account } from '../resources/account.js';
import { ConfigurationResource } from '../resources/configuration.js';
import { Orders } from '../resources/orders.js';
import { SnsSubscriptions } from '../resources/sns-subscriptions.js';
import { Stream } from '../resources/stream.js';
import { WebhookSubscriptions } from '../resources/webhook-subscriptions.js';
import { Withdrawals } from '../resources/withdrawals.js';
import { ClientState } from '../state/index.js';
import { checkCallLimits, type Environment, resolveOptions } from './config.js';
import { handlerWsUrl, loadMockBinding } from './mock-mode.js';
import type { MatchVenueOptions } from './options.js';

export type { MatchVenueOptions } from './options.js';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

// Each client's pipeline, for the SDK's own tests (apiClientOf); never reachable from the main entry.
const clients = new WeakMap<MatchVenue, ClientCore>();

/**
 * The request pipeline a client holds (`request`, `unknownKeys`, `logger`), for tests of the
 * pipeline itself. Not exported by any entry of the package.
 * @internal
 */
export function apiClientOf(venue: MatchVenue): ClientCore {
  const api = clients.get(venue);
  if (api === undefined) throw new ConfigurationError('apiClientOf: not a MatchVenue made by this module');
  return api;
}

/** The seeded simulator entity a mock-mode key belongs to, by its published test key. */
function seededEntity(apiKey: string): string | undefined {
  return Object.entries(SEEDED_API_KEYS).find(([, key]) => key === apiKey)?.[0];
}

/**
 * Client of the match venue REST API and the platform APIs it shares, with the venue's WebSocket
 * under `stream`. Every method that calls the API returns an {@link APIPromise} (the helpers that
 * settle, wait or watch, such as `resolveUnknown`, do not); failures are {@link MatchVenueError}s
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
export class MatchVenue {
  /** The REST base URL, without a trailing slash. */
  readonly baseUrl: string;
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
  /**
   * Platform: Notification API v1 webhook subscriptions (`/v1/notifications/subscriptions`), whose
   * deliveries are SNS messages (verify them with `createSnsVerifier` of `match-venue/webhooks`).
   */
  readonly snsSubscriptions: SnsSubscriptions;
  /**
   * Platform: Notification API v2 webhook subscriptions (`/v2/notifications/subscriptions`, one
   * create per product) and the keys their signed deliveries are verified with (`createV2Verifier`).
   */
  readonly webhookSubscriptions: WebhookSubscriptions;
  /**
   * The request pipeline the resources call, held rather than inherited so that none of its
   * plumbing (`request`, `endpoint`, ...) is part of the client's API.
   */
  readonly #api: ClientCore;

  constructor(options: MatchVenueOptions = {}) {
    // Every default and every check of the options is config.ts's; the rest reads `config`.
    const config = resolveOptions(options);
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
    const logger = createLogger(options.logger, config.logLevel, () => [apiKey]);
    // Only a recording client has a recorder (and the recording transport it brings).
    const recorder = config.record
      ? new Recorder(config.record, keyIdOf(apiKey), {
          secrets: [apiKey],
          warn: (message) => logger.warn(message),
          refuse: (message) => new ConfigurationError(message),
        })
      : undefined;
    const api = new ClientCore({
      baseUrl: config.baseUrl,
      apiKey,
      transport,
      timeout: config.timeout,
      totalTimeout: config.totalTimeout,
      maxRetries: config.maxRetries,
      retry: config.retry,
      logger,
      defaultHeaders: options.defaultHeaders,
      validateResponses: config.validateResponses,
      settleWindowMs: config.settleWindowMs,
      maxUnknownKeys: config.maxUnknownKeys,
      requestIdHeader: config.requestIdHeader,
      propagateTraceContext: config.propagateTraceContext,
      recorder,
      checkCallLimits,
    });
    this.#api = api;
    clients.set(this, api);
    this.baseUrl = api.baseUrl;
    this.environment = config.environment;
    this.wsUrl = config.wsUrl;
    // A mock client made without a key is the seeded burner; saying so spares a reader the hunt.
    this.#actsAs = config.environment === 'mock' ? seededEntity(apiKey) : undefined;
    // Shared by the resources that keep state: open mirrors and streams, withdrawals created.
    const state = new ClientState();
    this.orders = new Orders(api, state);
    this.withdrawals = new Withdrawals(api, state);
    // Mock mode streams from the shared simulator, which listens on loopback only once asked; a
    // createMockVenue client, from its own simulator, the same way (its handler says where).
    const mockWs = options.handler
      ? handlerWsUrl(options.handler)
      : config.environment === 'mock'
        ? () => loadMockBinding().then((binding) => binding.wsUrl())
        : undefined;
    this.stream = new Stream(api, this.orders, () => this.wsUrl ?? mockWs, config.wsSubprotocol, state);
    this.account = new Account(api, { orders: this.orders, stream: this.stream, state });
    this.configuration = new ConfigurationResource(api);
    this.snsSubscriptions = new SnsSubscriptions(api);
    this.webhookSubscriptions = new WebhookSubscriptions(api);
  }

  /**
   * Whether the platform accepts this client's API key (`GET /v1/configuration`): false on a 401,
   * true on success; any other failure is thrown, since it says nothing about the key.
   */
  verifyApiKey(options?: RequestOptions): APIPromise<boolean> {
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
    return this.#api.telemetry.hooks.on(event, listener, options);
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
