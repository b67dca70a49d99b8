import { type EndpointDefinition, endpoints, type OperationId } from '../generated/endpoints.js';
import type * as models from '../generated/models.js';
import * as c from '../validation/index.js';
import { isVenueCurrency, VENUE_CURRENCY_RULE } from './money.js';
import { isWebhookEndpoint, WEBHOOK_ENDPOINT_RULE } from './webhook-endpoint.js';

// The endpoint table both sides run: the client sends every call from it and the simulator's
// routes validate with it, so a request refused by one is refused by the other with the same
// field, kind and message. Where the simulator refuses a rule later on purpose (the engine's USD
// check comes after the eligibility check, 137010 first), its route validates with the generated
// `endpoints` row and the engine checks the rule itself.

/** placeOrder's body: the venue takes USD only (contract/money.ts), once the body's shape is sound. */
const PlaceOrderBody = c.withRules(endpoints.placeOrder.body, [
  c.superRefine((body: { amount: { currency: string } }, add) => {
    if (isVenueCurrency(body.amount.currency)) return;
    add({ code: 'invalid_value', message: VENUE_CURRENCY_RULE, path: ['amount', 'currency'] });
  }),
]);

/** A subscription's `endpoint`: HTTPS, plain http only on loopback (contract/webhook-endpoint.ts). */
const WebhookEndpoint = c.string(undefined, [c.refine(isWebhookEndpoint, WEBHOOK_ENDPOINT_RULE)]);

const withEndpoint = <T>(body: c.Check<T>): c.Check<T> => c.extend<T>(body, { endpoint: WebhookEndpoint });

/** The v2 answers: each product's subscription carries only its own fields. */
const subscription = endpoints.createWalletSubscription.responseData;
const RestrictedSubscription = c.omit<models.NotificationSubscription>(subscription, [
  'environment',
  'addresses',
  'domains',
]);
const TransferSubscription = c.omit<models.NotificationSubscription>(subscription, ['restricted']);

/** Every operation with its checks. */
export const operations = {
  ...endpoints,
  placeOrder: { ...endpoints.placeOrder, body: PlaceOrderBody },
  createWalletSubscription: {
    ...endpoints.createWalletSubscription,
    body: withEndpoint(endpoints.createWalletSubscription.body),
    responseData: RestrictedSubscription,
  },
  createPaymentsNetworkSubscription: {
    ...endpoints.createPaymentsNetworkSubscription,
    body: withEndpoint(endpoints.createPaymentsNetworkSubscription.body),
    responseData: RestrictedSubscription,
  },
  createFxSubscription: {
    ...endpoints.createFxSubscription,
    body: withEndpoint(endpoints.createFxSubscription.body),
    responseData: RestrictedSubscription,
  },
  createTransferSubscription: {
    ...endpoints.createTransferSubscription,
    body: withEndpoint(endpoints.createTransferSubscription.body),
    responseData: TransferSubscription,
  },
  createV1Subscription: {
    ...endpoints.createV1Subscription,
    body: withEndpoint(endpoints.createV1Subscription.body),
  },
} as const satisfies Record<OperationId, EndpointDefinition>;

export type { EndpointDefinition, OperationId };
