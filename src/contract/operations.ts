import type { OperationId } from '../generated/endpoints.js';
import type * as models from '../generated/models.js';
import { type CheckedEndpoint, checkedEndpoints } from '../generated/validators.js';
import * as c from './checks.js';
import { isVenueCurrency, VENUE_CURRENCY_RULE } from './money.js';
import { isWebhookEndpoint, WEBHOOK_ENDPOINT_RULE } from './webhook-endpoint.js';

// The client's endpoint table: what operation-schemas.ts is for the simulator, with plain
// validators (generated/validators.ts) in place of the zod schemas, so that sending a call loads
// no zod. The contract's hand refinements are restated here with the same rules and words; the
// agreement of the two tables is checked by test/contract/validators.test.ts.

/** placeOrder's body: the venue takes USD only (contract/orders.ts), once the body's shape is sound. */
const PlaceOrderBody = c.withRules(checkedEndpoints.placeOrder.body, [
  c.superRefine((body: { amount: { currency: string } }, add) => {
    if (isVenueCurrency(body.amount.currency)) return;
    add({ code: 'invalid_value', message: VENUE_CURRENCY_RULE, path: ['amount', 'currency'] });
  }),
]);

/** A subscription's `endpoint`: HTTPS, plain http only on loopback (contract/webhook-subscriptions.ts). */
const WebhookEndpoint = c.string(undefined, [c.refine(isWebhookEndpoint, WEBHOOK_ENDPOINT_RULE)]);

const withEndpoint = <T>(body: c.Check<T>): c.Check<T> => c.extend<T>(body, { endpoint: WebhookEndpoint });

/** The v2 answers: each product's subscription carries only its own fields. */
const subscription = checkedEndpoints.createWalletSubscription.responseData;
const RestrictedSubscription = c.omit<models.NotificationSubscription>(subscription, [
  'environment',
  'addresses',
  'domains',
]);
const TransferSubscription = c.omit<models.NotificationSubscription>(subscription, ['restricted']);

/** Every operation with its validators; the SDK sends every call from this table. */
export const operations = {
  ...checkedEndpoints,
  placeOrder: { ...checkedEndpoints.placeOrder, body: PlaceOrderBody },
  createWalletSubscription: {
    ...checkedEndpoints.createWalletSubscription,
    body: withEndpoint(checkedEndpoints.createWalletSubscription.body),
    responseData: RestrictedSubscription,
  },
  createPaymentsNetworkSubscription: {
    ...checkedEndpoints.createPaymentsNetworkSubscription,
    body: withEndpoint(checkedEndpoints.createPaymentsNetworkSubscription.body),
    responseData: RestrictedSubscription,
  },
  createFxSubscription: {
    ...checkedEndpoints.createFxSubscription,
    body: withEndpoint(checkedEndpoints.createFxSubscription.body),
    responseData: RestrictedSubscription,
  },
  createTransferSubscription: {
    ...checkedEndpoints.createTransferSubscription,
    body: withEndpoint(checkedEndpoints.createTransferSubscription.body),
    responseData: TransferSubscription,
  },
  createV1Subscription: {
    ...checkedEndpoints.createV1Subscription,
    body: withEndpoint(checkedEndpoints.createV1Subscription.body),
  },
} as const satisfies Record<OperationId, CheckedEndpoint>;

export type { CheckedEndpoint, OperationId };
