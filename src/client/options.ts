import type { Dispatcher } from 'undici';
import type { Logger, LogLevelOption } from '../core/logger.js';
import type { RetryOptions } from '../core/retry.js';
import type { FetchLike, WebHandler } from '../core/transport.js';

/** Where a client sends requests; `mock` is an in-process simulator (see {@link MatchVenueOptions.environment}). */
export type Environment = 'production' | 'sandbox' | 'mock';

// The options' defaults and checks live in one place, config.ts (OPTION_DEFAULTS, resolveOptions);
// the "Default" each doc comment below states is test/client/options.test.ts's to keep equal to it.

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
   * process; no socket; with MATCH_VENUE_MOCK_CASSETTE, a recorded cassette replayed instead).
   * Default: MATCH_VENUE_ENV (MATCH_VENUE_MOCK=1 is the same as `mock`), else inferred from the key
   * prefix.
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
  /** Backoff tuning of the retries. */
  retry?: RetryOptions;
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
  /**
   * Append every exchange of this client to this file, a cassette (docs/CASSETTES.md): each REST
   * attempt and WebSocket frame, with times, redacted (no API key, no ticket). Node only; several
   * clients and a webhook receiver may record to one file. A file of another cassette version is
   * refused at construction. Default: MATCH_VENUE_RECORD, else off (an empty value is off).
   */
  record?: string;
}
