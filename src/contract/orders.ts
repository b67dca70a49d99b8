import { PlaceOrderRequest } from '../generated/schemas.js';
import { isVenueCurrency, VENUE_CURRENCY_RULE } from './money.js';

/**
 * The place-order body with the venue's currency rule: the generated schema takes any ISO 4217
 * code, the venue only USD, so an order in another currency is refused before it is sent, naming
 * `amount.currency`. The rule runs once the body's shape is sound (it reads `amount.currency`).
 */
export const PlaceOrderBody = PlaceOrderRequest.refine((body) => isVenueCurrency(body.amount.currency), {
  path: ['amount', 'currency'],
  error: VENUE_CURRENCY_RULE,
});
