/**
 * Every rule of openapi/match-venue.yaml is enforced by the generated checks (src/generated/), the
 * ones client and simulator both run: a valid input passes as it is, and each mutation is refused
 * naming its field (path), the kind of rule (code) and the rule in words (message), exactly.
 */
import { describe, expect, it } from 'vitest';
import { isVenueCurrency, VENUE_CURRENCY, VENUE_CURRENCY_RULE } from '../../src/contract/money.js';
import { endpoints } from '../../src/generated/endpoints.js';
import { HttpsUrl } from '../../src/generated/validators.js';
import { type Check, runCheck } from '../../src/validation/index.js';

const KEY = '3b241101-e2bb-4255-8caf-4136c566a962';
const FIAT = '6f1d7d3e-2c4b-4f7a-9d1e-0a1b2c3d4e5f';
const ENDPOINT_RULE =
  'must be an HTTPS URL without spaces or control characters (URI characters only, no credentials; plain http only on a loopback host, for local testing)';

const mint = {
  idempotencyKey: KEY,
  orderType: 'MINT',
  amount: { amount: '500', currency: 'USD' },
  postFillAction: 'fallback',
};
const burn = { ...mint, orderType: 'BURN', sourceWalletId: 'wallet-1', fiatAccountId: FIAT, feeBps: '4.5' };

type Issue = [path: string, code: string, message: string];

function issues(check: Check | null, value: unknown): Issue[] | 'valid' {
  if (!check) throw new Error('the operation has no such check');
  const result = runCheck(check, value);
  return result.ok ? 'valid' : result.issues.map((i) => [i.path.join('.'), i.code, i.message] as Issue);
}

describe('placeOrder body', () => {
  const body = endpoints.placeOrder.body;

  it('takes a MINT and a BURN order as they are', () => {
    expect(runCheck(body, mint)).toEqual({ ok: true, value: mint });
    expect(runCheck(body, burn)).toEqual({ ok: true, value: burn });
  });

  it.each<[string, unknown, Issue[]]>([
    [
      'a currency other than USD (the venue rule)',
      { ...mint, amount: { amount: '500', currency: 'EUR' } },
      [['amount.currency', 'invalid_value', 'must be USD']],
    ],
    [
      'an amount not a multiple of 100 (x-decimal x-rule)',
      { ...mint, amount: { amount: '150', currency: 'USD' } },
      [['amount.amount', 'custom', 'must be at least 100 and a multiple of 100']],
    ],
    [
      'an amount that is no decimal (x-pattern-message)',
      { ...mint, amount: { amount: '1e2', currency: 'USD' } },
      [
        [
          'amount.amount',
          'invalid_format',
          'must be a non-negative decimal string with at most 2 decimal places',
        ],
      ],
    ],
    [
      'a number as amount',
      { ...mint, amount: { amount: 500, currency: 'USD' } },
      [['amount.amount', 'invalid_type', 'must be a string, not the number 500']],
    ],
    [
      'a missing postFillAction',
      { ...mint, postFillAction: undefined },
      [['postFillAction', 'invalid_value', 'is required']],
    ],
    [
      'an unknown postFillAction (enum)',
      { ...mint, postFillAction: 'keep' },
      [['postFillAction', 'invalid_value', 'must be one of roll, fallback, cancel']],
    ],
    [
      'a misspelt key (additionalProperties: false)',
      { ...mint, feeBPS: '5' },
      [['', 'unrecognized_keys', 'has an unknown key: feeBPS']],
    ],
    [
      'an unknown orderType (discriminator, x-rule)',
      { ...mint, orderType: 'SWAP' },
      [['orderType', 'invalid_union', 'orderType must be BURN or MINT']],
    ],
    [
      'a sourceWalletId on a MINT (x-forbidden-properties, x-forbidden-message)',
      { ...mint, sourceWalletId: 'w' },
      [['sourceWalletId', 'invalid_type', 'must be omitted for MINT orders']],
    ],
    [
      'an idempotencyKey that is no UUID v4',
      { ...mint, idempotencyKey: 'nope' },
      [['idempotencyKey', 'invalid_format', 'must be a UUID v4']],
    ],
    [
      'a feeBps with three decimals',
      { ...burn, feeBps: '4.125' },
      [
        [
          'feeBps',
          'invalid_format',
          'must be a non-negative decimal string of basis points with at most 2 decimal places',
        ],
      ],
    ],
  ])('refuses %s', (_name, value, expected) => {
    expect(issues(body, value)).toEqual(expected);
  });

  it('states the venue currency in the words of contract/money.ts, which the engine refuses with', () => {
    expect(VENUE_CURRENCY_RULE).toBe('must be USD');
    expect(isVenueCurrency(VENUE_CURRENCY)).toBe(true);
    expect(isVenueCurrency('EUR')).toBe(false);
  });
});

describe('the other request rules', () => {
  it.each<[string, Check | null, unknown, Issue[] | 'valid']>([
    ['listOrders: defaults filled', endpoints.listOrders.query, {}, 'valid'],
    [
      'listOrders: pageSize below 1',
      endpoints.listOrders.query,
      { pageSize: 0 },
      [['pageSize', 'too_small', 'must be at least 1']],
    ],
    [
      'listOrders: pageSize above 100, read from text',
      endpoints.listOrders.query,
      { pageSize: '101' },
      [['pageSize', 'too_big', 'must be at most 100']],
    ],
    [
      'listOrders: a page that is no integer',
      endpoints.listOrders.query,
      { page: 'x' },
      [['page', 'invalid_type', 'must be an integer']],
    ],
    [
      'listOrders: to before from (x-date-order)',
      endpoints.listOrders.query,
      { from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' },
      [['to', 'custom', 'must not be earlier than from']],
    ],
    [
      'listOrders: an unknown status',
      endpoints.listOrders.query,
      { status: 'open' },
      [
        [
          'status',
          'invalid_value',
          'must be one of pending, settling, filled, partial_fill, unfilled, cancelled, failed',
        ],
      ],
    ],
    [
      'cancelOrder: a fraction and a non-UUID',
      endpoints.cancelOrder.body,
      { auctionId: 1.5, orderId: 'x' },
      [
        ['auctionId', 'invalid_type', 'must be an integer, not the number 1.5'],
        ['orderId', 'invalid_format', 'must be a UUID'],
      ],
    ],
    [
      'cancelOrder: an auctionId past the safe integers',
      endpoints.cancelOrder.body,
      { auctionId: 2 ** 60, orderId: KEY },
      [['auctionId', 'too_big', 'must be a safe integer (at most 9007199254740991)']],
    ],
    [
      'modifyOrder: feeBps is required (null for a market order)',
      endpoints.modifyOrder.body,
      { auctionId: 1, orderId: KEY },
      [['feeBps', 'invalid_type', 'is required']],
    ],
    [
      'createWithdrawal: zero, in EUR, without account',
      endpoints.createWithdrawal.body,
      { idempotencyKey: KEY, amount: { amount: '0', currency: 'EUR' } },
      [
        ['amount.amount', 'custom', 'must be greater than 0'],
        ['amount.currency', 'invalid_value', 'must be USD'],
        ['fiatAccountId', 'invalid_type', 'is required'],
      ],
    ],
  ])('%s', (_name, check, value, expected) => {
    expect(issues(check, value)).toEqual(expected);
  });
});

describe('a webhook endpoint (HttpsUrl, x-url)', () => {
  it.each([
    ['https://hooks.example.com/circle', 'valid'],
    ['https://hooks.example.com:8443/x?tenant=7#y', 'valid'],
    ['http://127.0.0.1:3000/hook', 'valid'],
    ['http://localhost/hook', 'valid'],
    ['http://[::1]:8080/hook', 'valid'],
    ['http://hooks.example.com/hook', 'refused'],
    ['http://127.0.0.1.evil.example/hook', 'refused'],
    ['https://user:pass@hooks.example.com/x', 'refused'],
    ['https://user@hooks.example.com/x', 'refused'],
    ['ftp://hooks.example.com/x', 'refused'],
    ['not a url', 'refused'],
    ['', 'refused'],
    // `format: uri`: what the WHATWG parser would strip (tab, newline) or percent-encode.
    ['https://hooks.example.com/ad\nmin', 'refused'],
    ['https://hooks.example.com/a\tb', 'refused'],
    ['https://hooks.example.com/a\u0001b', 'refused'],
    ['https://hooks.example.com/a\u007fb', 'refused'],
    ['https://hooks.example.com/a b', 'refused'],
    ['http://127.0.0.1:3000/\u0000', 'refused'],
    [' https://hooks.example.com/x', 'refused'],
    // URI characters only (RFC 3986), as `format: uri` says: no unencoded non-ASCII or delimiters
    // the WHATWG parser would percent-encode, no broken percent-encoding, a port that exists.
    ['https://hooks.example.com/%C3%BC?q=%20#top', 'valid'],
    ['https://hooks.example.com/\u00fc', 'refused'],
    ['https://hooks.example.com/a<b>', 'refused'],
    ['https://hooks.example.com/{x}|y', 'refused'],
    ['https://hooks.example.com/a\\b', 'refused'],
    ['https://hooks.example.com/a%zz', 'refused'],
    ['https://hooks.example.com:99999/', 'refused'],
    ['https://hooks.example.com/#a#b', 'refused'],
  ])('%j is %s', (url, verdict) => {
    expect(issues(HttpsUrl, url)).toEqual(verdict === 'valid' ? 'valid' : [['', 'custom', ENDPOINT_RULE]]);
  });

  it('is the rule of every subscription create body, v1 and v2', () => {
    const bad = { endpoint: 'http://hooks.example.com/x', notificationTypes: ['*'] };
    for (const op of [
      'createV1Subscription',
      'createWalletSubscription',
      'createPaymentsNetworkSubscription',
      'createFxSubscription',
    ] as const) {
      expect(
        issues(endpoints[op].body, op === 'createV1Subscription' ? { endpoint: bad.endpoint } : bad),
        op,
      ).toEqual([['endpoint', 'custom', ENDPOINT_RULE]]);
    }
    expect(
      issues(endpoints.createTransferSubscription.body, {
        endpoint: bad.endpoint,
        environment: 'x',
        addresses: ['a'],
      }),
    ).toEqual([['endpoint', 'custom', ENDPOINT_RULE]]);
  });
});

describe('the per-product v2 subscription answers', () => {
  const base = { id: KEY, endpoint: 'https://hooks.example.com', notificationTypes: ['*'] };

  it('answer restricted products with RestrictedSubscription and the transfer product with TransferSubscription', () => {
    for (const op of [
      'createWalletSubscription',
      'createPaymentsNetworkSubscription',
      'createFxSubscription',
    ] as const)
      expect(endpoints[op].responseData, op).toBe(endpoints.createWalletSubscription.responseData);
    expect(endpoints.createTransferSubscription.responseData).not.toBe(
      endpoints.createWalletSubscription.responseData,
    );
  });

  it('check each product its own fields', () => {
    const restricted = endpoints.createWalletSubscription.responseData;
    const transfer = endpoints.createTransferSubscription.responseData;
    expect(issues(restricted, { ...base, restricted: true })).toBe('valid');
    expect(issues(restricted, { ...base, restricted: 'yes' })).toEqual([
      ['restricted', 'invalid_type', 'must be a boolean, not a string'],
    ]);
    const transferAnswer = { ...base, environment: 'mainnet', addresses: ['0xabc'], domains: [1] };
    expect(issues(transfer, transferAnswer)).toBe('valid');
    expect(issues(transfer, { ...transferAnswer, domains: ['x'] })).toEqual([
      ['domains.0', 'invalid_type', 'must be an integer, not a string'],
    ]);
    // An answer keeps fields this version does not know (a response is read tolerantly).
    expect(runCheck(restricted, { ...base, restricted: true, later: 1 })).toEqual({
      ok: true,
      value: { ...base, restricted: true, later: 1 },
    });
  });
});
