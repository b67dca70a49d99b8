import { DEFAULT_MOCK_API_KEY } from '../contract/api-key.js';
import { isSubprotocolName, SUBPROTOCOL, SUBPROTOCOL_RULE } from '../contract/ws-protocol.js';
import { parseApiKey } from '../core/api-key.js';
import { checkBaseUrl } from '../core/base-url.js';
import { ConfigurationError } from '../core/error.js';
import type { LogLevelOption } from '../core/logger.js';

/** Where a client sends requests; `mock` is an in-process simulator (see {@link MatchVenueOptions.environment}). */
export type Environment = 'production' | 'sandbox' | 'mock';

const ENVIRONMENTS: readonly Environment[] = ['production', 'sandbox', 'mock'];

/** Base URL of mock mode; never dialled (requests go to the in-process simulator). */
export const MOCK_BASE_URL = 'http://mock.match-venue.localhost';

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

const LOG_LEVELS: readonly LogLevelOption[] = ['debug', 'info', 'warn', 'error', 'silent'];

/** MATCH_VENUE_LOG_LEVEL, checked against the levels the logger knows. */
export function envLogLevel(): LogLevelOption | undefined {
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
export function resolveConfig(input: ConfigInput): ResolvedConfig {
  if (input.inProcess) {
    return {
      apiKey: checkedKey(input.apiKey ?? env('MATCH_VENUE_API_KEY') ?? DEFAULT_MOCK_API_KEY),
      environment: 'mock',
      // The mock URL only names the in-process target; it is never dialled.
      baseUrl: input.baseUrl === undefined ? MOCK_BASE_URL : checkBaseUrl(input.baseUrl, 'baseUrl'),
      wsUrl: input.wsUrl === undefined ? undefined : checkBaseUrl(input.wsUrl, 'wsUrl'),
      wsSubprotocol:
        input.wsSubprotocol === undefined
          ? SUBPROTOCOL
          : checkedSubprotocol(input.wsSubprotocol, 'wsSubprotocol'),
    };
  }
  const envName = env('MATCH_VENUE_ENV');
  const apiKey = input.apiKey ?? env('MATCH_VENUE_API_KEY');
  // A malformed key fails here, before any request, with an error that never repeats the key.
  const parsed = apiKey === undefined ? undefined : parseApiKey(apiKey);
  let environment: Environment;
  if (input.environment !== undefined) environment = parseEnvironment(input.environment, 'environment');
  else if (envName !== undefined) environment = parseEnvironment(envName, 'MATCH_VENUE_ENV');
  else environment = parsed?.environment ?? 'production';

  if (environment === 'mock') {
    // The shared simulator speaks our spec's protocol, whatever name the real venue is reached by.
    return {
      apiKey: apiKey ?? DEFAULT_MOCK_API_KEY,
      environment,
      baseUrl: MOCK_BASE_URL,
      wsUrl: undefined,
      wsSubprotocol: SUBPROTOCOL,
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
      : checkedSubprotocol(env('MATCH_VENUE_WS_SUBPROTOCOL') ?? SUBPROTOCOL, 'MATCH_VENUE_WS_SUBPROTOCOL');
  return { apiKey, environment, baseUrl, wsUrl, wsSubprotocol };
}
