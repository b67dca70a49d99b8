import { generateKeyPairSync } from 'node:crypto';
import * as sdk from 'match-venue';
import {
  APIUserAbortError,
  ConfigurationError,
  InvalidArgumentError,
  MatchVenue,
  MatchVenueError,
  OutcomeUnknownError,
  Page,
  usd,
} from 'match-venue';
import { createSelfSignedCertificate } from 'match-venue/webhooks/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { integer } from '../../src/webhooks/testing/der.js';
import { path } from '../../src/core/path.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** Runs `fn` and returns what it threw (or rejected with). */
async function thrown(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

async function expectKind(fn: () => unknown, Class: ErrorClass, kind: string, message?: RegExp) {
  const error = await thrown(fn);
  expect(error).toBeInstanceOf(Class);
  expect(error).toBeInstanceOf(MatchVenueError);
  expect(error).toMatchObject({ kind, code: kind });
  if (message) expect((error as Error).message).toMatch(message);
}

const ENV_VARS = [
  'MATCH_VENUE_API_KEY',
  'MATCH_VENUE_BASE_URL',
  'MATCH_VENUE_WS_URL',
  'MATCH_VENUE_ENV',
  'MATCH_VENUE_LOG_LEVEL',
] as const;

describe('client construction throws ConfigurationError (MV_INVALID_CONFIG)', () => {
  let saved: Record<string, string | undefined> = {};
  beforeEach(() => {
    saved = Object.fromEntries(ENV_VARS.map((v) => [v, process.env[v]]));
    for (const v of ENV_VARS) delete process.env[v];
  });
  afterEach(() => {
    for (const v of ENV_VARS) {
      if (saved[v] === undefined) delete process.env[v];
      else process.env[v] = saved[v];
    }
  });
  const KEY = 'TEST_API_KEY:abc:def';
  const baseUrl = 'https://venue.example.com';
  const config = (fn: () => unknown, message: RegExp) =>
    expectKind(fn, ConfigurationError, 'MV_INVALID_CONFIG', message);

  it('no API key, no base URL', async () => {
    await config(() => new MatchVenue(), /No API key/);
    await config(() => new MatchVenue({ apiKey: KEY }), /No base URL/);
  });

  it('an unknown environment, MATCH_VENUE_ENV or MATCH_VENUE_LOG_LEVEL', async () => {
    await config(
      () => new MatchVenue({ apiKey: KEY, baseUrl, environment: 'staging' as 'sandbox' }),
      /environment must be one of/,
    );
    process.env.MATCH_VENUE_ENV = 'staging';
    await config(() => new MatchVenue({ apiKey: KEY, baseUrl }), /MATCH_VENUE_ENV must be one of/);
    delete process.env.MATCH_VENUE_ENV;
    process.env.MATCH_VENUE_LOG_LEVEL = 'loud';
    await config(() => new MatchVenue({ apiKey: KEY, baseUrl }), /MATCH_VENUE_LOG_LEVEL must be one of/);
  });

  it('a base or WebSocket URL that is invalid, plain text off loopback, or another scheme', async () => {
    await config(() => new MatchVenue({ apiKey: KEY, baseUrl: 'not a url' }), /baseUrl is not a valid URL/);
    await config(() => new MatchVenue({ apiKey: KEY, baseUrl: 'http://venue.example.com' }), /clear text/);
    await config(() => new MatchVenue({ apiKey: KEY, baseUrl: 'ftp://venue.example.com' }), /https:\/\/ URL/);
    await config(() => new MatchVenue({ apiKey: KEY, baseUrl, wsUrl: 'ws://venue.example.com' }), /wsUrl/);
  });

  it('client limits out of range', async () => {
    await config(() => new MatchVenue({ apiKey: KEY, baseUrl, timeout: -1 }), /timeout must be a positive/);
    await config(() => new MatchVenue({ apiKey: KEY, baseUrl, maxRetries: 1.5 }), /maxRetries must be/);
  });

  it('a malformed key stays InvalidApiKeyError (MV_INVALID_API_KEY)', async () => {
    await expectKind(
      () => new MatchVenue({ apiKey: 'nope', baseUrl }),
      sdk.InvalidApiKeyError,
      'MV_INVALID_API_KEY',
    );
  });
});

describe('calls made wrongly throw InvalidArgumentError (MV_INVALID_ARGUMENT)', () => {
  const venue = new MatchVenue({
    apiKey: 'TEST_API_KEY:abc:def',
    handler: async () => {
      throw new Error('no request may be sent');
    },
  });
  const invalid = (fn: () => unknown, message: RegExp) =>
    expectKind(fn, InvalidArgumentError, 'MV_INVALID_ARGUMENT', message);
  const unknown = (operation: 'placeOrder' | 'createWithdrawal') =>
    new OutcomeUnknownError({
      operation,
      idempotencyKey: 'k',
      attempts: 1,
      request: {},
      settlesAt: 0,
      cause: new Error('x'),
    });

  it('an empty or dot path parameter', async () => {
    await invalid(() => path`/v1/match/orders/${''}`, /Path parameter 1 is empty/);
    await invalid(() => path`/v1/match/orders/${'..'}`, /'\.' or '\.\.' segment/);
  });

  it('a per-call limit out of range', async () => {
    await invalid(() => venue.account.retrieve({ timeout: 0 }), /timeout must be a positive/);
    await invalid(() => venue.account.retrieve({ maxRetries: -1 }), /maxRetries must be/);
  });

  it('an error given to the wrong resolveUnknown, or one without a key', async () => {
    await invalid(() => venue.orders.resolveUnknown(unknown('createWithdrawal')), /expects a placeOrder/);
    await invalid(() => venue.orders.resolveUnknown(new APIUserAbortError()), /no idempotency key/);
    await invalid(
      () => venue.withdrawals.resolveUnknown(unknown('placeOrder')),
      /expects a createWithdrawal/,
    );
  });

  it('getNextPage() on the last page', async () => {
    const page = new Page<never>([], { page: 1, pageSize: 10, total: 0 }, () => {
      throw new Error('not fetched');
    });
    await invalid(() => page.getNextPage(), /No next page/);
  });

  it('the certificate test helper without an RSA key pair, and a negative DER integer', async () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await invalid(() => createSelfSignedCertificate(ec), /needs an RSA key pair/);
    await invalid(() => integer(-1n), /non-negative/);
  });
});

describe('money helpers', () => {
  it('refuse floats with ValidationError (MV_VALIDATION)', async () => {
    await expectKind(() => usd(0.1), sdk.ValidationError, 'MV_VALIDATION');
  });
});
