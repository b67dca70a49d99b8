import { describe, expect, it } from 'vitest';
import {
  AccountSummary,
  Order,
  OrderList,
  V1Subscription,
  Withdrawal,
} from '../../src/generated/validators.js';
import { accepts, issuesOf, parse } from '../helpers/checks.js';

const usd = (amount: string) => ({ amount, currency: 'USD' });

const burnOrder = {
  orderId: '3b241101-e2bb-4255-8caf-4136c566a962',
  auctionId: 42,
  lineage: { parentOrderId: '9a1f0c3e-5b7d-4e2a-8c6f-1d2e3f4a5b6c', childOrderId: null },
  orderType: 'BURN',
  amount: usd('1000.00'),
  feeBps: '5',
  postFillAction: 'roll',
  status: 'partial_fill',
  createdAt: '2026-11-21T19:00:00.000Z',
  updatedAt: '2026-11-21T19:00:05.120Z',
  fill: {
    filledAmount: usd('600.00'),
    unfilledAmount: usd('400.00'),
    clearingFeeBps: '4.25',
    matchedAt: '2026-11-21T19:00:05Z',
  },
  sourceWalletId: 'wallet-burner-1',
  fiatAccountId: '6f1d7d3e-2c4b-4f7a-9d1e-0a1b2c3d4e5f',
} as const;

const mintOrder = {
  orderId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  auctionId: null,
  lineage: { parentOrderId: null, childOrderId: null },
  orderType: 'MINT',
  amount: usd('500.00'),
  feeBps: null,
  postFillAction: 'cancel',
  status: 'pending',
  createdAt: '2026-11-21T19:00:00+00:00',
  updatedAt: '2026-11-21T19:00:00+00:00',
  fill: null,
  sourceWalletId: null,
  fiatAccountId: null,
} as const;

describe('Order', () => {
  it('parses a realistic BURN order with lineage and fill', () => {
    const order = parse(Order, burnOrder);
    expect(order).toEqual(burnOrder);
    expect(order.orderType === 'BURN' && order.fiatAccountId).toBe(burnOrder.fiatAccountId);
  });

  it('parses a MINT order whose wallet and fiat account are null', () => {
    expect(parse(Order, mintOrder)).toEqual(mintOrder);
  });

  it('rejects a MINT order with a non-null sourceWalletId', () => {
    expect(issuesOf(Order, { ...mintOrder, sourceWalletId: 'wallet-1' }).map((issue) => issue.path)).toEqual([
      ['sourceWalletId'],
    ]);
  });

  it('rejects a MINT order that leaves out the always-present null fields', () => {
    const { fiatAccountId: _fiat, ...partial } = mintOrder;
    expect(issuesOf(Order, partial)).toEqual([{ path: ['fiatAccountId'], message: 'is required' }]);
  });

  it('accepts what the document does not mark Required left out: feeBps, and a fill without fee or time', () => {
    const { feeBps: _fee, ...noFee } = burnOrder;
    expect(accepts(Order, noFee)).toBe(true);
    const { clearingFeeBps: _clearing, matchedAt: _matched, ...bareFill } = burnOrder.fill;
    expect(accepts(Order, { ...burnOrder, fill: bareFill })).toBe(true);
  });

  it('still checks those fields when present, and requires the fill amounts', () => {
    const paths = (input: unknown) => issuesOf(Order, input).map((issue) => issue.path);
    expect(paths({ ...burnOrder, feeBps: 5 })).toEqual([['feeBps']]);
    expect(paths({ ...burnOrder, fill: { ...burnOrder.fill, matchedAt: 'soon' } })).toEqual([
      ['fill', 'matchedAt'],
    ]);
    const { unfilledAmount: _unfilled, ...noUnfilled } = burnOrder.fill;
    expect(paths({ ...burnOrder, fill: noUnfilled })).toEqual([['fill', 'unfilledAmount']]);
  });

  it('rejects a BURN order with a null fiatAccountId and an unknown status', () => {
    expect(accepts(Order, { ...burnOrder, fiatAccountId: null })).toBe(false);
    expect(accepts(Order, { ...burnOrder, status: 'open' })).toBe(false);
  });

  it('keeps fields the service may add later', () => {
    const order = parse(Order, { ...burnOrder, venueReference: 'abc' });
    expect(order).toMatchObject({ venueReference: 'abc' });
  });

  it('parses an order list page', () => {
    const page = { orders: [burnOrder, mintOrder], pagination: { page: 1, pageSize: 20, total: 2 } };
    expect(parse(OrderList, page)).toEqual(page);
  });
});

describe('other response bodies', () => {
  it('parses an account summary', () => {
    const summary = {
      accountId: 'acct-burner',
      stablecoin: { available: usd('9000.00'), reserved: usd('1000.00'), total: usd('10000.00') },
      exposure: { activeOrderCount: 1, mintOrderCount: 0, burnOrderCount: 1 },
      activity: {
        from: '2026-11-20T19:00:00Z',
        to: '2026-11-21T19:00:00Z',
        totalMatched: usd('600.00'),
        rebatesEarned: usd('0.00'),
        feesPaid: usd('0.26'),
      },
    };
    expect(parse(AccountSummary, summary)).toEqual(summary);
    expect(accepts(AccountSummary, { ...summary, activity: undefined })).toBe(false);
  });

  it('passes withdrawal fields beyond id and status through', () => {
    const withdrawal = {
      id: '0f8fad5b-d9cb-469f-a165-70867728950e',
      status: 'pending',
      wireReference: 'W-1',
    };
    expect(parse(Withdrawal, withdrawal)).toEqual(withdrawal);
  });

  it('parses a v1 subscription with one detail per region', () => {
    const subscription = {
      id: 'b2d4c6e8-1a3b-4c5d-8e9f-0a1b2c3d4e5f',
      endpoint: 'https://hooks.example.com/v1',
      subscriptionDetails: [
        { url: 'arn:aws:sns:us-east-1:000000000000:topic', arn: 'arn:aws:sns:...:sub-1', status: 'pending' },
        {
          url: 'arn:aws:sns:us-west-2:000000000000:topic',
          arn: 'arn:aws:sns:...:sub-2',
          status: 'confirmed',
        },
      ],
    };
    expect(parse(V1Subscription, subscription)).toEqual(subscription);
    expect(
      accepts(V1Subscription, {
        ...subscription,
        subscriptionDetails: [{ url: 'u', arn: 'a', status: 'active' }],
      }),
    ).toBe(false);
  });
});
