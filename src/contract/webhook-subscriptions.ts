import { z } from 'zod';
import {
  FxSubscriptionRequest,
  NotificationSubscription,
  PaymentsNetworkSubscriptionRequest,
  TransferSubscriptionRequest,
  V1SubscriptionRequest,
  WalletSubscriptionRequest,
} from '../generated/schemas.js';

// Webhook subscription request bodies with the endpoint rule: the SDK validates its parameters and
// the simulator validates what it receives with these same schemas.

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * True for an https URL, or an http URL on a loopback host. The platform requires HTTPS; plain
 * http is let through for loopback only, so a local receiver can subscribe to the simulator.
 */
export function isWebhookEndpoint(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

/** The `endpoint` rule of every subscription request (see {@link isWebhookEndpoint}). */
export const WebhookEndpoint = z
  .string()
  .refine(isWebhookEndpoint, 'must be an HTTPS URL (plain http only on a loopback host, for local testing)');

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
