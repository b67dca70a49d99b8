import { DEFAULT_MOCK_API_KEY } from '../contract/api-key.js';
import { REST_BACKOFF, sleep } from '../contract/retry-policy.js';
import { isSubprotocolName, SUBPROTOCOL, SUBPROTOCOL_RULE } from '../contract/ws-protocol.js';
import { parseApiKey } from '../core/api-key.js';
import { checkBaseUrl } from '../core/base-url.js';
import { ConfigurationError, InvalidArgumentError } from '../core/error.js';
import type { LogLevelOption } from '../core/logger.js';
import type { RequestOptions } from '../core/request.js';
import type { RetrySettings } from '../core/retry.js';
import type { Environment, MatchVenueOptions } from './options.js';

// The one home of the client's options: every default (OPTION_DEFAULTS) and every check, applied
// once by resolveOptions when a MatchVenue is made; the pipeline reads the resolved values. A
// call's own limits (RequestOptions) follow the same rules, checked by checkCallLimits, which the
// client hands to the pipeline (core may not import the client layer).

export type { Environment } from './options.js';

const ENVIRONMENTS: readonly Environment[] = ['production', 'sandbox', 'mock'];

/** Base URL of mock mode; never dialled (requests go to the in-process simulator). */
export const MOCK_BASE_URL = 'http://mock.match-venue.localhost';

/** Every default of {@link MatchVenueOptions}, and nowhere else. */
export const OPTION_DEFAULTS = {
  /** When neither the option, MATCH_VENUE_ENV nor the key's prefix names one. */
  environment: 'production',
  /** Mock mode's key without `apiKey` or MATCH_VENUE_API_KEY: the seeded burner's. */
  mockApiKey: DEFAULT_MOCK_API_KEY,
  /** Our spec's subprotocol name, without the option or MATCH_VENUE_WS_SUBPROTOCOL. */
  wsSubprotocol: SUBPROTOCOL,
  timeout: 30_000,
  totalTimeout: 60_000,
  maxRetries: 2,
  /** The contract's REST backoff; Retry-After capped at a minute; the real clock and randomness. */
  retry: {
    initialDelayMs: REST_BACKOFF.initialDelayMs,
    maxDelayMs: REST_BACKOFF.maxDelayMs,
    maxRetryAfterMs: 60_000,
    sleep,
    random: Math.random,
    now: Date.now,
  } satisfies RetrySettings as Readonly<RetrySettings>,
  /** Without MATCH_VENUE_LOG_LEVEL: nothing is logged unless a logger is given, then `info` and up. */
  logLevel: { withoutLogger: 'silent', withLogger: 'info' },
  validateResponses: true,
  /**
   * How long an attempt the client gave up on may still reach the venue: 60 s. An HTTP request
   * the client abandoned stays in flight only while some hop holds it; the proxies and load
   * balancers in front of HTTP services drop a request they could not deliver after their
   * idle/read timeout, commonly 60 s (nginx's `proxy_read_timeout`, AWS ALB's idle timeout), and
   * the client's own per-attempt timeout has already run out when the window starts.
   */
  settleWindowMs: 60_000,
  /** Unsettled keys kept; the oldest is forgotten past it (and logged). */
  maxUnknownKeys: 10_000,
  requestIdHeader: 'x-client-request-id',
  propagateTraceContext: false,
  /** Without the option or MATCH_VENUE_RECORD nothing is recorded (no file, no recording transport). */
  record: undefined,
} as const;

/** The options a client runs with, every default applied and every value checked. */
export interface ResolvedOptions extends ResolvedConfig {
  timeout: number;
  totalTimeout: number;
  maxRetries: number;
  retry: RetrySettings;
  logLevel: LogLevelOption;
  validateResponses: boolean;
  settleWindowMs: number;
  maxUnknownKeys: number;
  requestIdHeader: string;
  propagateTraceContext: boolean;
  /** The cassette file the client appends its exchanges to, when it records. */
  record: string | undefined;
}

/**
 * Checks `options` and applies the defaults, once, when a MatchVenue is made. The option checks
 * run before the URLs and the key are resolved, so a bad value is named even without a base URL.
 */
export function resolveOptions(options: MatchVenueOptions): ResolvedOptions {
  checkLimits(options, 'MatchVenue options');
  checkLedger(options);
  checkRequestIdHeader(options.requestIdHeader);
  const config = resolveConfig({ ...options, inProcess: options.handler !== undefined });
  const d = OPTION_DEFAULTS;
  const logLevel =
    options.logLevel ?? envLogLevel() ?? (options.logger ? d.logLevel.withLogger : d.logLevel.withoutLogger);
  return {
    ...config,
    timeout: options.timeout ?? d.timeout,
    totalTimeout: options.totalTimeout ?? d.totalTimeout,
    maxRetries: options.maxRetries ?? d.maxRetries,
    retry: { ...d.retry, ...options.retry },
    logLevel,
    validateResponses: options.validateResponses ?? d.validateResponses,
    settleWindowMs: options.settleWindowMs ?? d.settleWindowMs,
    maxUnknownKeys: options.maxUnknownKeys ?? d.maxUnknownKeys,
    requestIdHeader: options.requestIdHeader ?? d.requestIdHeader,
    propagateTraceContext: options.propagateTraceContext ?? d.propagateTraceContext,
    record: recordFile(options.record) ?? d.record,
  };
}

/** `record`, else MATCH_VENUE_RECORD; an empty value (either) is off. */
function recordFile(option: unknown): string | undefined {
  if (option !== undefined && typeof option !== 'string')
    throw new ConfigurationError(
      `MatchVenue options: record must be a file path (a string), got ${typeof option}`,
    );
  const file = option === undefined ? env('MATCH_VENUE_RECORD') : option.trim();
  return file === '' ? undefined : file;
}

type Limits = Pick<RequestOptions, 'timeout' | 'totalTimeout' | 'maxRetries'>;

/** A call's own limits, by the client options' rules: an InvalidArgumentError naming the call and the option. */
export function checkCallLimits(limits: Limits, call: { method: string; path: string }): void {
  checkLimits(limits, call);
}

/**
 * Rejects limits the pipeline cannot honour, naming the option: a ConfigurationError for the
 * client's options (`where` names them), an InvalidArgumentError for one call's (`where` is the call).
 */
function checkLimits(limits: Limits, where: string | { method: string; path: string }): void {
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

/** `settleWindowMs` and `maxUnknownKeys`, named in a ConfigurationError when out of range. */
function checkLedger(options: MatchVenueOptions): void {
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

// A header name as RFC 9110 allows it (a token), so a typo fails at construction, not per request.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function checkRequestIdHeader(header: unknown): void {
  if (header !== undefined && !(typeof header === 'string' && TOKEN.test(header)))
    throw new ConfigurationError(
      `MatchVenue options: requestIdHeader must be an HTTP header name, got ${JSON.stringify(header)}`,
    );
}

export interface ConfigInput {
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  wsUrl?: string | undefined;
  wsSubprotocol?: string | undefined;
  environment?: Environment | undefined;
  /** Requests are served in-process by a handler: the URLs only name the target, env vars do not apply. */
  inProcess?: boolean | undefined;
}

export interface ResolvedConfig {
  apiKey: string;
  environment: Environment;
  baseUrl: string;
  /** Undefined in mock mode until the shared simulator listens for sockets. */
  wsUrl: string | undefined;
  /** The WebSocket subprotocol name offered beside the ticket. */
  wsSubprotocol: string;
}

function env(name: string): string | undefined {
  const value = typeof process === 'undefined' ? undefined : process.env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function parseEnvironment(value: string, source: string): Environment {
  if ((ENVIRONMENTS as readonly string[]).includes(value)) return value as Environment;
  throw new ConfigurationError(`${source} must be one of ${ENVIRONMENTS.join(', ')}; got "${value}".`);
}

/**
 * MATCH_VENUE_ENV, or `mock` for MATCH_VENUE_MOCK=1 (the spelling of the same switch; `0`
 * leaves it off). The two naming different environments is refused rather than one picked.
 */
function envEnvironment(): string | undefined {
  const name = env('MATCH_VENUE_ENV');
  const mock = env('MATCH_VENUE_MOCK');
  if (mock === undefined || mock === '0') return name;
  if (mock !== '1') throw new ConfigurationError(`MATCH_VENUE_MOCK must be 1 or 0; got "${mock}".`);
  if (name !== undefined && name !== 'mock')
    throw new ConfigurationError(
      `MATCH_VENUE_MOCK=1 asks for mock mode but MATCH_VENUE_ENV is "${name}": set only one of them.`,
    );
  return 'mock';
}

const LOG_LEVELS: readonly LogLevelOption[] = ['debug', 'info', 'warn', 'error', 'silent'];

/** MATCH_VENUE_LOG_LEVEL, checked against the levels the logger knows. */
function envLogLevel(): LogLevelOption | undefined {
  const value = env('MATCH_VENUE_LOG_LEVEL')?.toLowerCase();
  if (value === undefined) return undefined;
  const level = LOG_LEVELS.find((l) => l === value);
  if (!level)
    throw new ConfigurationError(
      `MATCH_VENUE_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got "${value}".`,
    );
  return level;
}

function checkedKey(key: string): string {
  parseApiKey(key);
  return key;
}

function checkedSubprotocol(name: string, source: string): string {
  if (!isSubprotocolName(name)) throw new ConfigurationError(`${source} ${SUBPROTOCOL_RULE}; got "${name}".`);
  return name;
}

function wsFromBase(baseUrl: string): string {
  return baseUrl.replace(/^http(s?):/, 'ws$1:');
}

/**
 * Options win over environment variables. A resolved environment of `mock` ignores base URLs:
 * flipping MATCH_VENUE_ENV=mock must work without touching code that passes a baseUrl.
 */
function resolveConfig(input: ConfigInput): ResolvedConfig {
  if (input.inProcess) {
    return {
      apiKey: checkedKey(input.apiKey ?? env('MATCH_VENUE_API_KEY') ?? OPTION_DEFAULTS.mockApiKey),
      environment: 'mock',
      // The mock URL only names the in-process target; it is never dialled.
      baseUrl: input.baseUrl === undefined ? MOCK_BASE_URL : checkBaseUrl(input.baseUrl, 'baseUrl'),
      wsUrl: input.wsUrl === undefined ? undefined : checkBaseUrl(input.wsUrl, 'wsUrl'),
      wsSubprotocol:
        input.wsSubprotocol === undefined
          ? OPTION_DEFAULTS.wsSubprotocol
          : checkedSubprotocol(input.wsSubprotocol, 'wsSubprotocol'),
    };
  }
  const envName = envEnvironment();
  const apiKey = input.apiKey ?? env('MATCH_VENUE_API_KEY');
  // A malformed key fails here, before any request, with an error that never repeats the key.
  const parsed = apiKey === undefined ? undefined : parseApiKey(apiKey);
  let environment: Environment;
  if (input.environment !== undefined) environment = parseEnvironment(input.environment, 'environment');
  else if (envName !== undefined) environment = parseEnvironment(envName, 'MATCH_VENUE_ENV');
  else environment = parsed?.environment ?? OPTION_DEFAULTS.environment;

  if (environment === 'mock') {
    // The shared simulator speaks our spec's protocol, whatever name the real venue is reached by.
    return {
      apiKey: apiKey ?? OPTION_DEFAULTS.mockApiKey,
      environment,
      baseUrl: MOCK_BASE_URL,
      wsUrl: undefined,
      wsSubprotocol: OPTION_DEFAULTS.wsSubprotocol,
    };
  }
  if (apiKey === undefined) {
    throw new ConfigurationError(
      'No API key: pass `apiKey` to new MatchVenue({ apiKey }) or set the MATCH_VENUE_API_KEY environment variable ' +
        "(or use environment: 'mock' / MATCH_VENUE_ENV=mock to run against the in-process simulator).",
    );
  }
  // The spec gives each environment its own address without naming them, so none is guessed here:
  // a request sent to a wrong host with a live key would be worse than this error.
  const explicitBase = input.baseUrl ?? env('MATCH_VENUE_BASE_URL');
  if (explicitBase === undefined) {
    throw new ConfigurationError(
      `No base URL for the ${environment} environment: pass \`baseUrl\` to new MatchVenue({ baseUrl }) or set ` +
        'MATCH_VENUE_BASE_URL (your venue onboarding gives the address; for the local simulator it is printed by npx match-venue-sim).',
    );
  }
  const baseUrl = checkBaseUrl(explicitBase, 'baseUrl');
  const wsUrl = checkBaseUrl(input.wsUrl ?? env('MATCH_VENUE_WS_URL') ?? wsFromBase(baseUrl), 'wsUrl');
  const wsSubprotocol =
    input.wsSubprotocol !== undefined
      ? checkedSubprotocol(input.wsSubprotocol, 'wsSubprotocol')
      : checkedSubprotocol(
          env('MATCH_VENUE_WS_SUBPROTOCOL') ?? OPTION_DEFAULTS.wsSubprotocol,
          'MATCH_VENUE_WS_SUBPROTOCOL',
        );
  return { apiKey, environment, baseUrl, wsUrl, wsSubprotocol };
}
