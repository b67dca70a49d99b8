import { describe, expect, it } from 'vitest';
import { orderIdFor } from '../../src/contract/ids.js';
import { isVenueCurrency, VENUE_CURRENCY, VENUE_CURRENCY_RULE } from '../../src/contract/money.js';
import { operations } from '../../src/contract/operations.js';
import { endpoints } from '../../src/generated/endpoints.js';
import { CreateWithdrawalRequest, PlaceOrderRequest } from '../../src/generated/validators.js';
import { type Check, runCheck } from '../../src/validation/index.js';
import { accepts, parse } from '../helpers/checks.js';

const KEY_V4 = '3b241101-e2bb-4255-8caf-4136c566a962';
const mint = {
  idempotencyKey: KEY_V4,
  orderType: 'MINT',
  amount: { amount: '500', currency: 'USD' },
  postFillAction: 'fallback',
} as const;

const PlaceOrderBody = operations.placeOrder.body;
const WalletParams = operations.createWalletSubscription.body;
const RestrictedSubscription = operations.createWalletSubscription.responseData;
const TransferSubscription = operations.createTransferSubscription.responseData;

function issuesOf(check: Check, input: unknown) {
  const result = runCheck(check, input);
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.issues.map(({ path, message, code }) => ({ path, message, code }));
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

describe('operations: the same table with validators, which the client sends from', () => {
  it('has every operation with the same facts, and refines the same operations', () => {
    expect(Object.keys(operations).sort()).toEqual(Object.keys(endpoints).sort());
    const refined: string[] = [];
    for (const [id, def] of Object.entries(operations)) {
      const generated = endpoints[id as keyof typeof endpoints];
      const { query, body, responseData, ...facts } = def;
      const { query: q, body: b, responseData: r, ...generatedFacts } = generated;
      expect(facts, id).toEqual(generatedFacts);
      expect([query === null, body === null, responseData === null], id).toEqual([
        q === null,
        b === null,
        r === null,
      ]);
      const checked = endpoints[id as keyof typeof endpoints];
      if (body !== checked.body || responseData !== checked.responseData) refined.push(id);
      expect(query, id).toBe(checked.query);
    }
    expect(refined.sort()).toEqual([
      'createFxSubscription',
      'createPaymentsNetworkSubscription',
      'createTransferSubscription',
      'createV1Subscription',
      'createWalletSubscription',
      'placeOrder',
    ]);
  });
});

describe('venue currency', () => {
  it('an order in another currency is refused naming amount.currency and the rule', () => {
    expect(accepts(PlaceOrderRequest, { ...mint, amount: { amount: '500', currency: 'EUR' } })).toBe(true);
    expect(issuesOf(PlaceOrderBody, { ...mint, amount: { amount: '500', currency: 'EUR' } })).toEqual([
      { path: ['amount', 'currency'], message: VENUE_CURRENCY_RULE, code: 'invalid_value' },
    ]);
    expect(parse(PlaceOrderBody, mint)).toEqual(mint);
    // A code that is no ISO 4217 code at all keeps the schema's own rule.
    expect(
      issuesOf(PlaceOrderBody, { ...mint, amount: { amount: '500', currency: 'usd' } })[0]?.message,
    ).toBe('must be an ISO 4217 currency code (3 upper-case letters)');
  });

  it('is the currency the withdrawal schema states itself', () => {
    expect(VENUE_CURRENCY_RULE).toBe('must be USD');
    const body = { idempotencyKey: KEY_V4, amount: { amount: '100.00', currency: VENUE_CURRENCY } };
    expect(accepts(CreateWithdrawalRequest, body)).toBe(true);
    expect(accepts(CreateWithdrawalRequest, { ...body, amount: { amount: '100.00', currency: 'EUR' } })).toBe(
      false,
    );
    expect(isVenueCurrency('USD')).toBe(true);
    expect(isVenueCurrency('EUR')).toBe(false);
  });
});

describe('ids', () => {
  it('an order is named by the idempotency key that placed it', () => {
    expect(orderIdFor(KEY_V4)).toBe(KEY_V4);
  });
});
