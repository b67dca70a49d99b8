import { z } from 'zod';
import {
  FxSubscriptionRequest,
  NotificationSubscription,
  PaymentsNetworkSubscriptionRequest,
  TransferSubscriptionRequest,
  V1SubscriptionRequest,
  WalletSubscriptionRequest,
} from '../generated/schemas.js';
import { isWebhookEndpoint, WEBHOOK_ENDPOINT_RULE } from './webhook-endpoint.js';

export { isWebhookEndpoint } from './webhook-endpoint.js';

// Webhook subscription request bodies with the endpoint rule: the simulator validates what it
// receives with these schemas; the SDK validates its parameters with the same rules as plain
// validators (operations.ts).

/** The `endpoint` rule of every subscription request (see {@link isWebhookEndpoint}). */
export const WebhookEndpoint = z.string().refine(isWebhookEndpoint, WEBHOOK_ENDPOINT_RULE);

/** The v1 (SNS) create body. */
export const CreateV1Params = V1SubscriptionRequest.extend({ endpoint: WebhookEndpoint });

/** The v2 create bodies, one per product. */
export const WalletParams = WalletSubscriptionRequest.extend({ endpoint: WebhookEndpoint });
export const PaymentsNetworkParams = PaymentsNetworkSubscriptionRequest.extend({ endpoint: WebhookEndpoint });
export const FxParams = FxSubscriptionRequest.extend({ endpoint: WebhookEndpoint });
export const TransferParams = TransferSubscriptionRequest.extend({ endpoint: WebhookEndpoint });

/** Wallet, contract, payments-network and FX subscriptions carry `restricted`, never the transfer fields. */
export const RestrictedSubscription = NotificationSubscription.omit({
  environment: true,
  addresses: true,
  domains: true,
});

/** The permissionless transfer product's subscription: `environment`, `addresses`, `domains`. */
export const TransferSubscription = NotificationSubscription.omit({ restricted: true });
