import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { orderIdFor } from '../../src/contract/ids.js';
import { isVenueCurrency, VENUE_CURRENCY, VENUE_CURRENCY_RULE } from '../../src/contract/money.js';
import { operations } from '../../src/contract/operations.js';
import { PlaceOrderBody } from '../../src/contract/orders.js';
import {
  RestrictedSubscription,
  TransferSubscription,
  WalletParams,
} from '../../src/contract/webhook-subscriptions.js';
import { endpoints } from '../../src/generated/endpoints.js';
import { CreateWithdrawalRequest, PlaceOrderRequest } from '../../src/generated/schemas.js';

const KEY_V4 = '3b241101-e2bb-4255-8caf-4136c566a962';
const mint = {
  idempotencyKey: KEY_V4,
  orderType: 'MINT',
  amount: { amount: '500', currency: 'USD' },
  postFillAction: 'fallback',
} as const;

function issuesOf(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  return (result.error?.issues ?? []).map(({ path, message, code }) => ({ path, message, code }));
}

describe('operations: the endpoint table with the contract refinements', () => {
  it('has every operation of the generated table, with the same method, path, status and error codes', () => {
    expect(Object.keys(operations).sort()).toEqual(Object.keys(endpoints).sort());
    for (const [id, def] of Object.entries(operations)) {
      const generated = endpoints[id as keyof typeof endpoints];
      const facts = ({
        method,
        path,
        successStatus,
        idempotent,
        pathParams,
        errorCodes,
        specGap,
      }: typeof def) => ({
        method,
        path,
        successStatus,
        idempotent,
        pathParams,
        errorCodes,
        specGap,
      });
      expect(facts(def), id).toEqual(facts(generated));
      expect(def.query, id).toBe(generated.query);
    }
  });

  it('replaces only the schemas the contract narrows', () => {
    const refined = Object.entries(operations)
      .filter(([id, def]) => {
        const generated = endpoints[id as keyof typeof endpoints];
        return def.body !== generated.body || def.responseData !== generated.responseData;
      })
      .map(([id]) => id)
      .sort();
    expect(refined).toEqual([
      'createFxSubscription',
      'createPaymentsNetworkSubscription',
      'createTransferSubscription',
      'createV1Subscription',
      'createWalletSubscription',
      'placeOrder',
    ]);
    expect(operations.placeOrder.body).toBe(PlaceOrderBody);
    expect(operations.createWalletSubscription.body).toBe(WalletParams);
    expect(operations.createWalletSubscription.responseData).toBe(RestrictedSubscription);
    expect(operations.createTransferSubscription.responseData).toBe(TransferSubscription);
  });
});

describe('venue currency', () => {
  it('an order in another currency is refused naming amount.currency and the rule', () => {
    expect(PlaceOrderRequest.safeParse({ ...mint, amount: { amount: '500', currency: 'EUR' } }).success).toBe(
      true,
    );
    expect(issuesOf(PlaceOrderBody, { ...mint, amount: { amount: '500', currency: 'EUR' } })).toEqual([
      { path: ['amount', 'currency'], message: VENUE_CURRENCY_RULE, code: 'invalid_value' },
    ]);
    expect(PlaceOrderBody.parse(mint)).toEqual(mint);
    // A code that is no ISO 4217 code at all keeps the schema's own rule.
    expect(
      issuesOf(PlaceOrderBody, { ...mint, amount: { amount: '500', currency: 'usd' } })[0]?.message,
    ).toBe('must be an ISO 4217 currency code (3 upper-case letters)');
  });

  it('is the currency the withdrawal schema states itself', () => {
    expect(VENUE_CURRENCY_RULE).toBe('must be USD');
    const amount = CreateWithdrawalRequest.shape.amount;
    expect(amount.shape.currency.safeParse(VENUE_CURRENCY).success).toBe(true);
    expect(amount.shape.currency.safeParse('EUR').success).toBe(false);
    expect(isVenueCurrency('USD')).toBe(true);
    expect(isVenueCurrency('EUR')).toBe(false);
  });
});

describe('ids', () => {
  it('an order is named by the idempotency key that placed it', () => {
    expect(orderIdFor(KEY_V4)).toBe(KEY_V4);
  });
});
