import { readFileSync } from 'node:fs';
import * as sdk from 'match-venue';
import { APIError, MatchVenueError } from 'match-venue';
import * as webhooks from 'match-venue/webhooks';
import { parseSnsMessage, WebhookError, WebhookErrorCode } from 'match-venue/webhooks';
import { describe, expect, it } from 'vitest';

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
