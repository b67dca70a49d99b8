import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ConfigurationError,
  InvalidApiKeyError,
  InvalidArgumentError,
  MatchVenue,
  type MatchVenueOptions,
} from 'match-venue';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OPTION_DEFAULTS, resolveOptions } from '../../src/client/config.js';
import { apiClientOf } from '../../src/client/match-venue.js';

// The client's options have one home, src/client/config.ts: OPTION_DEFAULTS holds every default and
// resolveOptions every check. These tests pin that: what a client resolves is the table, the doc
// comments state the table, no other module falls back to a default of its own, and every bad
// value is refused naming its option.

const VARS = [
  'MATCH_VENUE_API_KEY',
  'MATCH_VENUE_BASE_URL',
  'MATCH_VENUE_WS_URL',
  'MATCH_VENUE_WS_SUBPROTOCOL',
  'MATCH_VENUE_ENV',
  'MATCH_VENUE_LOG_LEVEL',
  'MATCH_VENUE_RECORD',
] as const;
// Each test starts without the variables; vitest puts back what was there.
beforeEach(() => {
  for (const v of VARS) vi.stubEnv(v, undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const KEY = 'TEST_API_KEY:abc:s3cret-part';
const BASE = 'https://venue.example';
const SRC = join(import.meta.dirname, '../../src');

describe('client option defaults', () => {
  it('resolves every option left out to the one table of defaults', () => {
    const d = OPTION_DEFAULTS;
    const resolved = resolveOptions({ apiKey: KEY, baseUrl: BASE });
    expect(resolved).toEqual({
      apiKey: KEY,
      environment: 'sandbox', // from the key's prefix
      baseUrl: BASE,
      wsUrl: 'wss://venue.example',
      wsSubprotocol: d.wsSubprotocol,
      timeout: d.timeout,
      totalTimeout: d.totalTimeout,
      maxRetries: d.maxRetries,
      retry: d.retry,
      logLevel: d.logLevel.withoutLogger,
      validateResponses: d.validateResponses,
      settleWindowMs: d.settleWindowMs,
      maxUnknownKeys: d.maxUnknownKeys,
      requestIdHeader: d.requestIdHeader,
      propagateTraceContext: d.propagateTraceContext,
      record: d.record,
    });
    expect(d.record).toBeUndefined();
    expect(resolveOptions({ apiKey: KEY, baseUrl: BASE, logger: console }).logLevel).toBe(
      d.logLevel.withLogger,
    );
    expect(resolveOptions({ environment: 'mock' }).apiKey).toBe(d.mockApiKey);
    // Without a key the environment is the table's, not mock, so the client asks for a key.
    expect(d.environment).not.toBe('mock');
    expect(() => resolveOptions({ baseUrl: BASE })).toThrow(/No API key/);
  });

  it('the table holds the values the option docs state', () => {
    const d = OPTION_DEFAULTS;
    // A changed default fails here until its doc comment says the same.
    expect({
      timeout: d.timeout,
      totalTimeout: d.totalTimeout,
      maxRetries: d.maxRetries,
      settleWindowMs: d.settleWindowMs,
      maxUnknownKeys: d.maxUnknownKeys,
      requestIdHeader: d.requestIdHeader,
      validateResponses: d.validateResponses,
      propagateTraceContext: d.propagateTraceContext,
    }).toEqual({
      timeout: 30_000,
      totalTimeout: 60_000,
      maxRetries: 2,
      settleWindowMs: 60_000,
      maxUnknownKeys: 10_000,
      requestIdHeader: 'x-client-request-id',
      validateResponses: true,
      propagateTraceContext: false,
    });
    const docs = propertyDocs(readFileSync(join(SRC, 'client/options.ts'), 'utf8'));
    const stated = (name: string, value: unknown) =>
      expect(docs.get(name), name).toMatch(new RegExp(`[Dd]efault:? \`?${String(value)}\\b`));
    for (const name of ['timeout', 'totalTimeout', 'maxRetries', 'settleWindowMs', 'maxUnknownKeys'] as const)
      stated(name, d[name]);
    stated('requestIdHeader', d.requestIdHeader);
    stated('validateResponses', d.validateResponses);
    stated('propagateTraceContext', d.propagateTraceContext);
    expect(docs.get('logLevel')).toContain(
      `\`${d.logLevel.withoutLogger}\`, or \`${d.logLevel.withLogger}\``,
    );
    const retryDocs = propertyDocs(readFileSync(join(SRC, 'core/retry.ts'), 'utf8'));
    for (const name of ['initialDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const)
      expect(retryDocs.get(name), name).toContain(`Default ${d.retry[name]}.`);
  });

  it('the pipeline runs with the resolved values', () => {
    const api = apiClientOf(new MatchVenue({ apiKey: KEY, baseUrl: BASE }));
    expect(api.unknownKeys.settleWindowMs).toBe(OPTION_DEFAULTS.settleWindowMs);
    expect(api.telemetry.requestIdHeader).toBe(OPTION_DEFAULTS.requestIdHeader);
    expect(api.telemetry.propagateTraceContext).toBe(OPTION_DEFAULTS.propagateTraceContext);
  });

  it('no other module of the client or the pipeline falls back to a default of its own', () => {
    const names =
      'timeout|totalTimeout|maxRetries|retry|logLevel|validateResponses|settleWindowMs|maxUnknownKeys|requestIdHeader|propagateTraceContext|record';
    // `options.timeout ?? 30_000`, `opts.validateResponses !== false`: what a second home looks like.
    const fallback = new RegExp(`\\b(options|opts|input|config)\\.(${names})\\s*(\\?\\?|!==|===)`);
    const offenders: string[] = [];
    for (const dir of ['client', 'core']) {
      for (const file of readdirSync(join(SRC, dir), { recursive: true, encoding: 'utf8' })) {
        if (!file.endsWith('.ts') || (dir === 'client' && file === 'config.ts')) continue;
        const text = readFileSync(join(SRC, dir, file), 'utf8');
        text.split('\n').forEach((line, i) => {
          if (fallback.test(line) || line.includes('MatchVenue options'))
            offenders.push(`${dir}/${file}:${i + 1}: ${line.trim()}`);
        });
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe('client option checks', () => {
  const bad: [Partial<Record<keyof MatchVenueOptions, unknown>>, RegExp][] = [
    [{ timeout: 0 }, /^MatchVenue options: timeout must be a positive number of milliseconds, got 0$/],
    [{ totalTimeout: -1 }, /^MatchVenue options: totalTimeout must be a positive number of milliseconds/],
    [{ timeout: '5' }, /^MatchVenue options: timeout must be a positive number of milliseconds, got 5$/],
    [{ maxRetries: 1.5 }, /^MatchVenue options: maxRetries must be a non-negative integer, got 1.5$/],
    [{ settleWindowMs: Number.NaN }, /^MatchVenue options: settleWindowMs must be a non-negative number/],
    [{ maxUnknownKeys: 0 }, /^MatchVenue options: maxUnknownKeys must be a positive integer, got 0$/],
    [{ requestIdHeader: 'bad header' }, /^MatchVenue options: requestIdHeader must be an HTTP header name/],
    [{ environment: 'staging' }, /^environment must be one of production, sandbox, mock; got "staging"/],
    [{ baseUrl: 'http://venue.example' }, /^baseUrl must use https:\/\//],
    [{ baseUrl: 'https://venue.example/v1' }, /^baseUrl must not end in \/v1/],
    [{ wsUrl: 'ws://venue.example' }, /^wsUrl must use wss:\/\//],
    [{ wsSubprotocol: 'ticket.x' }, /^wsSubprotocol must be an HTTP token/],
    [{ record: 5 }, /^MatchVenue options: record must be a file path \(a string\), got number$/],
  ];
  it.each(bad)('refuses %o naming the option and the rule', (extra, message) => {
    const make = () => new MatchVenue({ apiKey: KEY, baseUrl: BASE, ...extra } as MatchVenueOptions);
    expect(make).toThrow(ConfigurationError);
    expect(make).toThrow(message);
  });

  it('refuses a bad key, and a bad log level from the environment, naming them', () => {
    expect(() => new MatchVenue({ apiKey: 'nope', baseUrl: BASE })).toThrow(InvalidApiKeyError);
    process.env.MATCH_VENUE_LOG_LEVEL = 'loud';
    expect(() => new MatchVenue({ apiKey: KEY, baseUrl: BASE })).toThrow(
      /^MATCH_VENUE_LOG_LEVEL must be one of debug, info, warn, error, silent; got "loud"\.$/,
    );
  });

  it("refuses a call's own limits by the same rules, naming the call and the option", async () => {
    const venue = new MatchVenue({ apiKey: KEY, baseUrl: BASE });
    const refused = async (options: object, message: RegExp) => {
      const error = await venue.account.retrieve(options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message).toMatch(message);
    };
    await refused({ timeout: 0 }, /^GET \/\S+: timeout must be a positive number of milliseconds, got 0$/);
    await refused({ totalTimeout: Number.NaN }, /^GET \/\S+: totalTimeout must be a positive number/);
    await refused({ maxRetries: -1 }, /^GET \/\S+: maxRetries must be a non-negative integer, got -1$/);
  });
});

/** Each property's doc comment in `source`, by the property's name. */
function propertyDocs(source: string): Map<string, string> {
  const docs = new Map<string, string>();
  for (const m of source.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*(\w+)\??:/g)) {
    docs.set(m[2] as string, (m[1] as string).replace(/\s*\n\s*\*\s*/g, ' '));
  }
  return docs;
}
