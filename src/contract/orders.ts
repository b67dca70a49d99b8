import { PlaceOrderRequest } from '../generated/schemas.js';
import { isVenueCurrency, VENUE_CURRENCY, VENUE_CURRENCY_RULE } from './money.js';

/**
 * The place-order body with the venue's currency rule: the generated schema takes any ISO 4217
 * code, the venue only USD, so an order in another currency is refused before it is sent, naming
 * `amount.currency` with the rule and kind (`invalid_value`) the venue answers with. The rule runs
 * once the body's shape is sound (it reads `amount.currency`).
 */
export const PlaceOrderBody = PlaceOrderRequest.superRefine((body, ctx) => {
  const currency = body.amount.currency;
  if (isVenueCurrency(currency)) return;
  ctx.addIssue({
    code: 'invalid_value',
    values: [VENUE_CURRENCY],
    input: currency,
    path: ['amount', 'currency'],
    message: VENUE_CURRENCY_RULE,
  });
});
