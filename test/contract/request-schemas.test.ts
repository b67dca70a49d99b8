import { describe, expect, it } from 'vitest';
import {
  CancelOrderRequest,
  CreateWithdrawalRequest,
  ListOrdersQuery,
  ModifyOrderRequest,
  PlaceOrderRequest,
  V1SubscriptionRequest,
  WalletSubscriptionRequest,
} from '../../src/generated/validators.js';
import { accepts, issuesOf, parse } from '../helpers/checks.js';

const KEY_V4 = '3b241101-e2bb-4255-8caf-4136c566a962';
const KEY_V1 = 'c232ab00-9414-11ec-b3c8-9f6bdeced846';
const FIAT = '6f1d7d3e-2c4b-4f7a-9d1e-0a1b2c3d4e5f';

const burn = {
  idempotencyKey: KEY_V4,
  orderType: 'BURN',
  amount: { amount: '1000.00', currency: 'USD' },
  feeBps: '5',
  postFillAction: 'roll',
  sourceWalletId: 'wallet-1',
  fiatAccountId: FIAT,
} as const;

const mint = {
  idempotencyKey: KEY_V4,
  orderType: 'MINT',
  amount: { amount: '500', currency: 'USD' },
  feeBps: null,
  postFillAction: 'fallback',
} as const;

describe('PlaceOrderRequest', () => {
  it('accepts a BURN order, a MINT order and a market order', () => {
    expect(parse(PlaceOrderRequest, burn)).toEqual(burn);
    expect(parse(PlaceOrderRequest, mint)).toEqual(mint);
    const { feeBps: _fee, ...market } = burn;
    expect(accepts(PlaceOrderRequest, market)).toBe(true);
    expect(accepts(PlaceOrderRequest, { ...burn, feeBps: '4.25' })).toBe(true);
    expect(accepts(PlaceOrderRequest, { ...burn, amount: { amount: '100', currency: 'USD' } })).toBe(true);
  });

  it.each([
    ['150.00', 'must be at least 100 and a multiple of 100'],
    ['0', 'must be at least 100 and a multiple of 100'],
    ['99.99', 'must be at least 100 and a multiple of 100'],
    ['100.50', 'must be at least 100 and a multiple of 100'],
    ['100.001', 'must be a non-negative decimal string with at most 2 decimal places'],
    ['-100', 'must be a non-negative decimal string with at most 2 decimal places'],
    ['1e3', 'must be a non-negative decimal string with at most 2 decimal places'],
  ])('rejects amount %s naming the rule', (amount, message) => {
    expect(issuesOf(PlaceOrderRequest, { ...burn, amount: { amount, currency: 'USD' } })).toEqual([
      { path: ['amount', 'amount'], message },
    ]);
  });

  it('rejects a numeric amount 0 as not a string', () => {
    expect(issuesOf(PlaceOrderRequest, { ...burn, amount: { amount: 0, currency: 'USD' } })).toEqual([
      { path: ['amount', 'amount'], message: 'must be a string, not the number 0' },
    ]);
  });

  it('rejects any currency but USD, the venue rule (OrderAmount.currency)', () => {
    for (const currency of ['usd', 'EUR'])
      expect(
        issuesOf(PlaceOrderRequest, { ...burn, amount: { amount: '1000', currency } }),
        currency,
      ).toEqual([{ path: ['amount', 'currency'], message: 'must be USD' }]);
  });

  it('rejects a MINT order carrying sourceWalletId or fiatAccountId', () => {
    expect(issuesOf(PlaceOrderRequest, { ...mint, sourceWalletId: 'wallet-1' })).toEqual([
      { path: ['sourceWalletId'], message: 'must be omitted for MINT orders' },
    ]);
    expect(issuesOf(PlaceOrderRequest, { ...mint, fiatAccountId: FIAT })).toEqual([
      { path: ['fiatAccountId'], message: 'must be omitted for MINT orders' },
    ]);
    expect(issuesOf(PlaceOrderRequest, { ...mint, sourceWalletId: null })).toEqual([
      { path: ['sourceWalletId'], message: 'must be omitted for MINT orders' },
    ]);
  });

  it('rejects a BURN order without fiatAccountId or sourceWalletId', () => {
    const { fiatAccountId: _fiat, ...noFiat } = burn;
    expect(issuesOf(PlaceOrderRequest, noFiat)).toEqual([
      { path: ['fiatAccountId'], message: 'is required' },
    ]);
    const { sourceWalletId: _wallet, ...noWallet } = burn;
    expect(issuesOf(PlaceOrderRequest, noWallet)).toEqual([
      { path: ['sourceWalletId'], message: 'is required' },
    ]);
    expect(issuesOf(PlaceOrderRequest, { ...burn, fiatAccountId: 'acct-1' })).toEqual([
      { path: ['fiatAccountId'], message: 'must be a UUID' },
    ]);
  });

  it('refuses unknown keys on both sides, so a misspelt feeBps cannot become a market order', () => {
    expect(issuesOf(PlaceOrderRequest, { ...burn, feeBps: undefined, feeBPS: '5' })).toEqual([
      { path: [], message: 'has an unknown key: feeBPS' },
    ]);
    expect(issuesOf(PlaceOrderRequest, { ...mint, feebps: '5' })).toEqual([
      { path: [], message: 'has an unknown key: feebps' },
    ]);
  });

  it('rejects an idempotency key that is not a UUID v4', () => {
    expect(issuesOf(PlaceOrderRequest, { ...burn, idempotencyKey: KEY_V1 })).toEqual([
      { path: ['idempotencyKey'], message: 'must be a UUID v4' },
    ]);
    expect(issuesOf(PlaceOrderRequest, { ...burn, idempotencyKey: 'order-1' })).toEqual([
      { path: ['idempotencyKey'], message: 'must be a UUID v4' },
    ]);
  });

  it('rejects fee limits with more than 2 decimals or a sign', () => {
    const message = 'must be a non-negative decimal string of basis points with at most 2 decimal places';
    expect(issuesOf(PlaceOrderRequest, { ...burn, feeBps: '1.234' })).toEqual([
      { path: ['feeBps'], message },
    ]);
    expect(issuesOf(PlaceOrderRequest, { ...mint, feeBps: '-1' })).toEqual([{ path: ['feeBps'], message }]);
  });

  it('rejects an unknown orderType and postFillAction', () => {
    expect(issuesOf(PlaceOrderRequest, { ...burn, orderType: 'SWAP' })).toEqual([
      { path: ['orderType'], message: 'orderType must be BURN or MINT' },
    ]);
    expect(issuesOf(PlaceOrderRequest, { ...burn, postFillAction: 'keep' })).toEqual([
      { path: ['postFillAction'], message: 'must be one of roll, fallback, cancel' },
    ]);
  });
});

describe('ListOrdersQuery', () => {
  it('applies the defaults page 1 and pageSize 20', () => {
    expect(parse(ListOrdersQuery, {})).toEqual({ page: 1, pageSize: 20 });
  });

  it('accepts every filter, and numbers given as query-string text', () => {
    const query = {
      page: 3,
      pageSize: 100,
      status: 'partial_fill',
      orderType: 'MINT',
      orderId: KEY_V4,
      from: '2026-01-01T00:00:00Z',
      to: '2026-01-01T00:00:00Z',
    };
    expect(parse(ListOrdersQuery, query)).toEqual(query);
    expect(parse(ListOrdersQuery, { page: '2', pageSize: '1' })).toEqual({ page: 2, pageSize: 1 });
  });

  it.each([
    [{ pageSize: 0 }, ['pageSize'], 'must be at least 1'],
    [{ pageSize: 101 }, ['pageSize'], 'must be at most 100'],
    [{ pageSize: 2.5 }, ['pageSize'], 'must be an integer'],
    [{ pageSize: '2.5' }, ['pageSize'], 'must be an integer'],
    // Number() would read these as 16, 100, 5, 0 and 1; a query string's integer is plain digits.
    [{ pageSize: '0x10' }, ['pageSize'], 'must be an integer'],
    [{ pageSize: '1e2' }, ['pageSize'], 'must be an integer'],
    [{ pageSize: ' 5' }, ['pageSize'], 'must be an integer'],
    [{ page: '' }, ['page'], 'must be an integer'],
    [{ page: true }, ['page'], 'must be an integer'],
    [{ pageSize: '101' }, ['pageSize'], 'must be at most 100'],
    [{ page: '0' }, ['page'], 'must be at least 1'],
    [{ page: 0 }, ['page'], 'must be at least 1'],
    [
      { status: 'open' },
      ['status'],
      'must be one of pending, settling, filled, partial_fill, unfilled, cancelled, failed',
    ],
    [{ orderType: 'SWAP' }, ['orderType'], 'must be one of BURN, MINT'],
    [{ from: 'yesterday' }, ['from'], 'must be an ISO 8601 date-time'],
    [{ orderId: 'abc' }, ['orderId'], 'must be a UUID'],
    [{ from: '2026-01-02T00:00:00Z', to: '2026-01-01T23:59:59Z' }, ['to'], 'must not be earlier than from'],
  ])('rejects %j', (query, path, message) => {
    expect(issuesOf(ListOrdersQuery, query)).toEqual([{ path, message }]);
  });
});

describe('other request bodies', () => {
  it('cancel needs an integer auctionId and a UUID orderId', () => {
    expect(parse(CancelOrderRequest, { auctionId: 7, orderId: KEY_V4 })).toEqual({
      auctionId: 7,
      orderId: KEY_V4,
    });
    expect(issuesOf(CancelOrderRequest, { auctionId: '7', orderId: KEY_V4 })).toEqual([
      { path: ['auctionId'], message: 'must be an integer, not a string' },
    ]);
  });

  it('modify requires feeBps and takes null for a market order', () => {
    expect(accepts(ModifyOrderRequest, { auctionId: 7, orderId: KEY_V4, feeBps: null })).toBe(true);
    expect(accepts(ModifyOrderRequest, { auctionId: 7, orderId: KEY_V4, feeBps: '3.5' })).toBe(true);
    expect(issuesOf(ModifyOrderRequest, { auctionId: 7, orderId: KEY_V4 })).toEqual([
      { path: ['feeBps'], message: 'is required' },
    ]);
  });

  it('withdrawal amount is positive USD with at most 2 decimals', () => {
    const ok = { idempotencyKey: KEY_V4, amount: { amount: '250.00', currency: 'USD' }, fiatAccountId: FIAT };
    expect(parse(CreateWithdrawalRequest, ok)).toEqual(ok);
    expect(accepts(CreateWithdrawalRequest, { ...ok, amount: { amount: '0.01', currency: 'USD' } })).toBe(
      true,
    );
    expect(issuesOf(CreateWithdrawalRequest, { ...ok, amount: { amount: '0.00', currency: 'USD' } })).toEqual(
      [{ path: ['amount', 'amount'], message: 'must be greater than 0' }],
    );
    expect(issuesOf(CreateWithdrawalRequest, { ...ok, amount: { amount: '10', currency: 'EUR' } })).toEqual([
      { path: ['amount', 'currency'], message: 'must be USD' },
    ]);
    expect(issuesOf(CreateWithdrawalRequest, { ...ok, idempotencyKey: KEY_V1 })).toEqual([
      { path: ['idempotencyKey'], message: 'must be a UUID v4' },
    ]);
  });

  it('subscription endpoints must be HTTPS (plain http only on loopback)', () => {
    expect(accepts(V1SubscriptionRequest, { endpoint: 'https://hooks.example.com/v1' })).toBe(true);
    expect(accepts(V1SubscriptionRequest, { endpoint: 'http://localhost:3000/v1' })).toBe(true);
    for (const endpoint of [
      'http://hooks.example.com/v1',
      'https://',
      'https://a b.example',
      'https://user@hooks.example.com',
    ]) {
      expect(issuesOf(V1SubscriptionRequest, { endpoint }), endpoint).toEqual([
        {
          path: ['endpoint'],
          message:
            'must be an HTTPS URL without spaces or control characters (URI characters only, no credentials; plain http only on a loopback host, for local testing)',
        },
      ]);
    }
    expect(
      accepts(V1SubscriptionRequest, { endpoint: 'https://hooks.example.com:8443/v1/in?tenant=7#x' }),
    ).toBe(true);
    expect(
      accepts(WalletSubscriptionRequest, { endpoint: 'https://hooks.example.com', notificationTypes: ['*'] }),
    ).toBe(true);
  });
});
