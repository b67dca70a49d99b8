import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import * as sdk from 'match-venue';
import {
  APIError,
  APIUserAbortError,
  ConfigurationError,
  InvalidArgumentError,
  MatchVenue,
  MatchVenueError,
  OutcomeUnknownError,
  Page,
  usd,
} from 'match-venue';
import * as webhooks from 'match-venue/webhooks';
import {
  createSelfSignedCertificate,
  parseSnsMessage,
  WebhookError,
  WebhookErrorCode,
} from 'match-venue/webhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { integer } from '../../src/webhooks/testing/der.js';
import { path } from '../../src/core/path.js';

type ErrorClass = abstract new (...args: never[]) => Error;

const apiInit = {
  status: 400,
  venueCode: 136002,
  serverMessage: 'm',
  requestId: undefined,
  headers: {},
  errors: undefined,
  body: undefined,
};

/** One instance of every error class the package exports; a new class must be added here. */
const SAMPLES: Record<string, () => MatchVenueError> = {
  MatchVenueError: () => new sdk.MatchVenueError('m'),
  APIError: () => new sdk.APIError(apiInit),
  BadRequestError: () => new sdk.BadRequestError(apiInit),
  AuthenticationError: () => new sdk.AuthenticationError({ ...apiInit, status: 401 }),
  PermissionDeniedError: () => new sdk.PermissionDeniedError({ ...apiInit, status: 403 }),
  NotFoundError: () => new sdk.NotFoundError({ ...apiInit, status: 404 }),
  ConflictError: () => new sdk.ConflictError({ ...apiInit, status: 409 }),
  RateLimitError: () => new sdk.RateLimitError({ ...apiInit, status: 429 }),
  InternalServerError: () => new sdk.InternalServerError({ ...apiInit, status: 500, venueCode: undefined }),
  APIConnectionError: () => new sdk.APIConnectionError(),
  APIConnectionTimeoutError: () => new sdk.APIConnectionTimeoutError(),
  APIUserAbortError: () => new sdk.APIUserAbortError(),
  ValidationError: () => new sdk.ValidationError('x', [{ path: 'a', rule: 'r', kind: 'custom' }]),
  ResponseValidationError: () => new sdk.ResponseValidationError('m', undefined, []),
  OutcomeUnknownError: () =>
    new sdk.OutcomeUnknownError({
      operation: 'placeOrder',
      idempotencyKey: 'k',
      attempts: 1,
      request: {},
      settlesAt: 0,
      cause: new Error('x'),
    }),
  InvalidApiKeyError: () => new sdk.InvalidApiKeyError('missing', 'no key'),
  ConfigurationError: () => new sdk.ConfigurationError('m'),
  InvalidArgumentError: () => new sdk.InvalidArgumentError('m'),
  SubscriptionPendingError: () => new sdk.SubscriptionPendingError('s', []),
  StreamGaveUpError: () => new sdk.StreamGaveUpError(3, 'socket closed (1006)'),
  WaitTimeoutError: () => new sdk.WaitTimeoutError('00000000-0000-4000-8000-000000000000', 10, undefined),
  OrderFinalError: () =>
    new sdk.OrderFinalError({
      orderId: '00000000-0000-4000-8000-000000000000',
      auctionId: 1,
      lineage: { parentOrderId: null, childOrderId: null },
      orderType: 'MINT',
      amount: { amount: '100.00', currency: 'USD' },
      feeBps: null,
      postFillAction: 'cancel',
      status: 'cancelled',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      fill: null,
      sourceWalletId: null,
      fiatAccountId: null,
    }),
  WebhookError: () => new webhooks.WebhookError('WEBHOOK_BODY_INVALID', 'm'),
};

function errorClasses(module: Record<string, unknown>): [string, ErrorClass][] {
  return Object.entries(module).filter(
    (entry): entry is [string, ErrorClass] =>
      typeof entry[1] === 'function' && (entry[1] as { prototype?: unknown }).prototype instanceof Error,
  );
}

const exported = [...errorClasses(sdk), ...errorClasses(webhooks)];

describe('every exported error class', () => {
  it('is listed in the samples, and every sample is exported', () => {
    expect(exported.map(([name]) => name).sort()).toEqual(Object.keys(SAMPLES).sort());
  });

  it('extends MatchVenueError and has a stable kind of its own', () => {
    const owners = new Map<string, string>();
    for (const [name, Class] of exported) {
      const error = SAMPLES[name]?.();
      expect(error, name).toBeInstanceOf(Class);
      expect(error, name).toBeInstanceOf(MatchVenueError);
      if (!error) continue;
      expect(error.kind, name).toMatch(/^(MV|WEBHOOK)_[A-Z_]+$/);
      if (Class === WebhookError) {
        expect((Class as unknown as typeof MatchVenueError).kind).toBeUndefined();
        continue;
      }
      expect(error.kind, name).toBe((Class as unknown as typeof MatchVenueError).kind);
      expect(error.code, name).toBe(error.kind);
      expect(owners.get(error.kind), `${name} reuses ${error.kind}`).toBeUndefined();
      owners.set(error.kind, name);
    }
    // Webhook codes are kinds too and clash with none of the classes'.
    for (const code of Object.values(WebhookErrorCode)) expect(owners.get(code)).toBeUndefined();
  });

  it('keeps the kind in code on every error and the venue number in venueCode on APIError', () => {
    const error = SAMPLES.BadRequestError?.() as APIError;
    expect([error.kind, error.code, error.venueCode]).toEqual([
      'MV_API_BAD_REQUEST',
      'MV_API_BAD_REQUEST',
      136002,
    ]);
    const server = SAMPLES.InternalServerError?.() as APIError;
    expect([server.code, server.venueCode]).toEqual(['MV_API_SERVER_ERROR', undefined]);
    expect(SAMPLES.APIConnectionTimeoutError?.().code).toBe('MV_TIMEOUT');
    expect(Object.hasOwn(new sdk.APIConnectionTimeoutError(), 'venueCode')).toBe(false);
  });

  it('puts kind and code in JSON, so a log line keeps them', () => {
    const json = JSON.parse(JSON.stringify(SAMPLES.APIConnectionTimeoutError?.()));
    expect(json).toMatchObject({ name: 'APIConnectionTimeoutError', kind: 'MV_TIMEOUT', code: 'MV_TIMEOUT' });
    expect(JSON.parse(JSON.stringify(SAMPLES.NotFoundError?.()))).toMatchObject({
      kind: 'MV_API_NOT_FOUND',
      code: 'MV_API_NOT_FOUND',
      venueCode: 136002,
    });
  });

  it('are all in the table of docs/ERRORS.md', () => {
    const doc = readFileSync(new URL('../../docs/ERRORS.md', import.meta.url), 'utf8');
    for (const [name] of exported) {
      const kind = SAMPLES[name]?.().kind;
      if (name !== 'WebhookError') expect(doc, name).toContain(`| \`${name}\` (`);
      if (name !== 'WebhookError') expect(doc, name).toContain(`| \`${kind}\` |`);
      // The venueCode column: a number on the APIError family, none elsewhere.
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${name}\` (`));
      const venueCode = SAMPLES[name]?.() instanceof APIError ? 'number or undefined' : '—';
      expect(row?.split(' | ')[2], name).toBe(venueCode);
    }
    for (const [key, code] of Object.entries(WebhookErrorCode)) {
      expect(doc, code).toContain(`| \`${key}\` | \`${code}\` |`);
    }
  });
});

describe('WebhookError', () => {
  it('is a MatchVenueError whose kind and code are its WebhookErrorCode', () => {
    for (const code of Object.values(WebhookErrorCode)) {
      const error = new WebhookError(code, 'm');
      expect(error).toBeInstanceOf(MatchVenueError);
      expect(error.code).toBe(code);
      expect(error.kind).toBe(code);
      expect(error.name).toBe('WebhookError');
    }
  });

  it('is what a refused delivery throws', () => {
    let caught: unknown;
    try {
      parseSnsMessage('not json');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(MatchVenueError);
    expect(caught).toMatchObject({ kind: 'WEBHOOK_BODY_INVALID', code: 'WEBHOOK_BODY_INVALID' });
  });
});

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

describe('the source', () => {
  const root = new URL('../../src/', import.meta.url);
  /** Not the client's errors: the simulator answers over HTTP; generated code throws nothing. */
  const EXCLUDED = ['simulator/', 'generated/'];
  /**
   * Internal: the HTTP pipeline wraps these (as `cause`) in APIConnectionError; the stream turns the
   * socket codec's SocketMoneyError into a `stream.resync` event (reason `undecodable`), never a throw.
   */
  const WRAPPED: Record<string, RegExp> = {
    'core/transport.ts': /class TransportTimeoutError extends Error/,
    'core/undici-transport.ts': /new Error\('text\(\) before the response arrived'\)/,
    'contract/ws-codec.ts': /class SocketMoneyError extends RangeError/,
    // Certificate and key parsing: WEBHOOK_CERT_INVALID carries it as `cause`; p256.ts answers a
    // key problem instead.
    'webhooks/der-reader.ts': /class DerReadError extends Error/,
  };
  /**
   * Server side only: the socket codec (shared through src/contract/) refusing to encode money that
   * cannot travel as integer cents, which only the simulator's hub does.
   */
  const SERVER_SIDE: Record<string, RegExp> = {
    'contract/ws-codec.ts': /throw new RangeError\(`\$\{event\}: \$\{path\} cannot travel as socket cents/,
    // The signing code's node:crypto lookup: only the simulator reaches it unchecked (on Node);
    // match-venue/webhooks' test signers check first and throw WEBHOOK_CONFIG_INVALID.
    'webhook-crypto/node-crypto.ts': /throw new RangeError\(/,
  };
  const PLAIN =
    /\bnew (?:Error|TypeError|RangeError|SyntaxError|MatchVenueError)\(|\bextends (?:Error|TypeError|RangeError)\b/;

  it('throws no plain Error, TypeError, RangeError or bare MatchVenueError', () => {
    const offenders: string[] = [];
    for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      const rel = file.split('\\').join('/');
      if (!rel.endsWith('.ts') || EXCLUDED.some((p) => rel.startsWith(p))) continue;
      readFileSync(new URL(rel, root), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^\s*(\/\/|\*|\/\*)/.test(line) || !PLAIN.test(line)) return;
          if (rel === 'core/base-error.ts' && /class MatchVenueError extends Error/.test(line)) return;
          if (WRAPPED[rel]?.test(line)) return;
          if (SERVER_SIDE[rel]?.test(line)) return;
          offenders.push(`src/${rel}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});
