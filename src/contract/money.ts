/**
 * The venue's currency. Every Money the venue takes is USD: order amounts and withdrawals. The
 * OpenAPI states it (`OrderAmount.currency` and `WithdrawalAmount.currency` are `enum: [USD]`), so
 * the generated checks refuse another currency with "must be USD"; the simulator's engine, which
 * refuses an order's currency only after its eligibility check, uses this predicate and message.
 */
export const VENUE_CURRENCY = 'USD';

/** The rule's message, as both sides report it for `amount.currency`. */
export const VENUE_CURRENCY_RULE = 'must be USD';

export function isVenueCurrency(currency: unknown): boolean {
  return currency === VENUE_CURRENCY;
}
