import { inspect } from 'node:util';
import { InvalidApiKeyError, MatchVenue, MatchVenueError } from 'match-venue';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const VARS = [
  'MATCH_VENUE_API_KEY',
  'MATCH_VENUE_BASE_URL',
  'MATCH_VENUE_WS_URL',
  'MATCH_VENUE_ENV',
] as const;
const KEY = 'TEST_API_KEY:abc:s3cret-part';
// Each test starts without the variables; vitest puts back what was there.
beforeEach(() => {
  for (const v of VARS) vi.stubEnv(v, undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('client options', () => {
  it('names the env var when no key is given', () => {
    expect(() => new MatchVenue()).toThrow(MatchVenueError);
    expect(() => new MatchVenue()).toThrow(/MATCH_VENUE_API_KEY/);
  });

  it('reads key, URLs and environment from env vars', () => {
    process.env.MATCH_VENUE_API_KEY = 'TEST_API_KEY:a:b';
    process.env.MATCH_VENUE_BASE_URL = 'http://127.0.0.1:4010/';
    const venue = new MatchVenue();
    expect(venue.baseUrl).toBe('http://127.0.0.1:4010');
    expect(venue.wsUrl).toBe('ws://127.0.0.1:4010');
    expect(venue.environment).toBe('sandbox');
    process.env.MATCH_VENUE_WS_URL = 'ws://localhost:9';
    expect(new MatchVenue().wsUrl).toBe('ws://localhost:9');
  });

  it('picks the environment from the key prefix, options win', () => {
    const baseUrl = 'https://venue.example.com';
    expect(new MatchVenue({ apiKey: 'LIVE_API_KEY:a:b', baseUrl }).environment).toBe('production');
    expect(new MatchVenue({ apiKey: 'TEST_API_KEY:a:b', baseUrl }).environment).toBe('sandbox');
    expect(
      new MatchVenue({ apiKey: 'TEST_API_KEY:a:b', baseUrl, environment: 'production' }).environment,
    ).toBe('production');
    expect(() => new MatchVenue({ apiKey: KEY, baseUrl, environment: 'staging' as 'sandbox' })).toThrow(
      /one of production/,
    );
  });

  it('refuses a malformed key before any request, without repeating it', () => {
    for (const apiKey of [
      's3cret-part',
      'TEST_API_KEY:abc',
      'OTHER_KEY:abc:s3cret-part',
      'TEST_API_KEY:abc:s3cret part',
    ]) {
      let error: unknown;
      try {
        new MatchVenue({ apiKey, baseUrl: 'https://venue.example.com' });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InvalidApiKeyError);
      expect(String(error)).not.toContain('s3cret');
      expect(inspect(error)).not.toContain('s3cret');
    }
    process.env.MATCH_VENUE_API_KEY = 'garbage-s3cret';
    expect(() => new MatchVenue({ baseUrl: 'https://venue.example.com' })).toThrow(InvalidApiKeyError);
  });

  it('never guesses a host: outside mock mode a base URL is required and the error names the option and env var', () => {
    expect(() => new MatchVenue({ apiKey: 'LIVE_API_KEY:a:b' })).toThrow(
      /No base URL for the production environment: pass `baseUrl`.*MATCH_VENUE_BASE_URL/,
    );
    expect(() => new MatchVenue({ apiKey: 'TEST_API_KEY:a:b' })).toThrow(
      /No base URL for the sandbox environment/,
    );
    expect(new MatchVenue({ apiKey: 'TEST_API_KEY:a:b', environment: 'mock' }).environment).toBe('mock');
  });

  it('accepts https anywhere and http only on loopback', () => {
    const ok = [
      'https://venue.example.com',
      'http://127.0.0.1:1',
      'http://127.9.9.9',
      'http://localhost:3000',
      'http://[::1]:80',
    ];
    for (const baseUrl of ok)
      expect(new MatchVenue({ apiKey: KEY, baseUrl }).baseUrl).toBe(baseUrl.replace(/\/$/, ''));
    for (const baseUrl of [
      'http://venue.example.com',
      'http://127.0.0.1.evil.com',
      'http://venue.localhost',
      'http://localhost.evil.com',
      'http://[::ffff:7f00:1]',
      'http://10.0.0.1',
      'ftp://x',
    ]) {
      expect(() => new MatchVenue({ apiKey: KEY, baseUrl })).toThrow(MatchVenueError);
    }
    expect(() => new MatchVenue({ apiKey: KEY, baseUrl: 'http://venue.example.com' })).toThrow(
      /baseUrl must use https:\/\/ unless it points at a loopback address/,
    );
    expect(
      () => new MatchVenue({ apiKey: KEY, baseUrl: 'https://a.example', wsUrl: 'ws://a.example' }),
    ).toThrow(/wsUrl must use wss:\/\//);
  });

  it('refuses a base or WebSocket URL ending in /v1, which every path adds, with the URL to use', () => {
    for (const baseUrl of [
      'https://venue.example.com/v1',
      'http://127.0.0.1:4010/v1/',
      'https://x.example/api/V1',
    ])
      expect(() => new MatchVenue({ apiKey: KEY, baseUrl })).toThrow(/baseUrl must not end in \/v1/);
    expect(() => new MatchVenue({ apiKey: KEY, baseUrl: 'https://venue.example.com/v1' })).toThrow(
      'baseUrl must not end in /v1: the client adds the version to every path (/v1/match/…), so this one ' +
        'would call /v1/v1/…; pass "https://venue.example.com" instead.',
    );
    process.env.MATCH_VENUE_BASE_URL = 'http://127.0.0.1:4010/v1';
    expect(() => new MatchVenue({ apiKey: KEY })).toThrow(/pass "http:\/\/127\.0\.0\.1:4010" instead/);
    delete process.env.MATCH_VENUE_BASE_URL;
    expect(
      () => new MatchVenue({ apiKey: KEY, baseUrl: 'https://a.example', wsUrl: 'wss://a.example/v1' }),
    ).toThrow(/wsUrl must not end in \/v1/);
    // A path that merely contains v1 elsewhere, and the socket's full path, are fine.
    expect(new MatchVenue({ apiKey: KEY, baseUrl: 'https://a.example/v1x' }).baseUrl).toBe(
      'https://a.example/v1x',
    );
    expect(
      new MatchVenue({ apiKey: KEY, baseUrl: 'https://a.example', wsUrl: 'wss://a.example/v1/match/ws' })
        .wsUrl,
    ).toBe('wss://a.example/v1/match/ws');
  });

  it('a mock client says which seeded entity it acts as, never its key', () => {
    const shown = inspect(new MatchVenue({ environment: 'mock' }));
    expect(shown).toBe(
      "MatchVenue { environment: 'mock', baseUrl: 'http://mock.match-venue.localhost', actsAs: 'burner' }",
    );
    expect(inspect(new MatchVenue({ environment: 'mock', apiKey: 'TEST_API_KEY:minter:sim' }))).toContain(
      "actsAs: 'minter'",
    );
    // A key of no seeded entity, and a client of a real venue, act as nobody the client can name.
    expect(inspect(new MatchVenue({ environment: 'mock', apiKey: KEY }))).not.toContain('actsAs');
    expect(inspect(new MatchVenue({ apiKey: KEY, baseUrl: 'https://a.example' }))).not.toContain('actsAs');
    expect(shown).not.toContain('TEST_API_KEY');
  });

  it('rejects limits it cannot honour, and treats Infinity as no limit', async () => {
    expect(() => new MatchVenue({ apiKey: KEY, timeout: 0 })).toThrow(/timeout must be a positive number/);
    expect(() => new MatchVenue({ apiKey: KEY, maxRetries: -1 })).toThrow(
      /maxRetries must be a non-negative integer/,
    );
    const venue = new MatchVenue({
      environment: 'mock',
      timeout: Number.POSITIVE_INFINITY,
      totalTimeout: Number.POSITIVE_INFINITY,
    });
    await expect(venue.account.retrieve()).resolves.toMatchObject({ accountId: expect.any(String) });
    await expect(venue.account.retrieve({ maxRetries: 1.5 })).rejects.toThrow(/maxRetries/);
  });

  it('mock mode needs no key and ignores base URLs', () => {
    process.env.MATCH_VENUE_ENV = 'mock';
    process.env.MATCH_VENUE_BASE_URL = 'https://venue.example.com';
    const venue = new MatchVenue();
    expect(venue.environment).toBe('mock');
    expect(venue.baseUrl).not.toContain('venue.example.com');
  });
});
