/**
 * The venue's currency. Every Money the venue takes is USD: order amounts and withdrawals. The
 * withdrawal schema states it itself (openapi: `WithdrawalAmount.currency` is `enum: [USD]`); an
 * order's amount is any ISO 4217 code by the schema, and this rule narrows it (contract/orders.ts
 * for the SDK, the engine's late check for the simulator), with one predicate and one message.
 */
export const VENUE_CURRENCY = 'USD';

/** The rule's message, as both sides report it for `amount.currency`. */
export const VENUE_CURRENCY_RULE = 'must be USD';

export function isVenueCurrency(currency: unknown): boolean {
  return currency === VENUE_CURRENCY;
}
