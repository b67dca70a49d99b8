import type { z } from 'zod';
import { operations } from '../contract/operations.js';
import type {
  FxParams,
  PaymentsNetworkParams,
  RestrictedSubscription,
  TransferParams,
  TransferSubscription,
  WalletParams,
} from '../contract/webhook-subscriptions.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request.js';
import { APIResource } from '../core/resource.js';
import type { NotificationPublicKey } from '../generated/schemas.js';

export type WalletSubscriptionParams = z.input<typeof WalletParams>;
export type PaymentsNetworkSubscriptionParams = z.input<typeof PaymentsNetworkParams>;
export type FxSubscriptionParams = z.input<typeof FxParams>;
export type TransferSubscriptionParams = z.input<typeof TransferParams>;

export type RestrictedNotificationSubscription = z.infer<typeof RestrictedSubscription>;
export type TransferNotificationSubscription = z.infer<typeof TransferSubscription>;

/** Notification API v2 subscriptions (one create per product) and the signing keys of deliveries. */
export class Notifications extends APIResource {
  /**
   * Wallet and contract products: `POST /v2/notifications/subscriptions`. The platform sends a
   * HEAD request to `endpoint` first and refuses the subscription (400, code 2) unless it answers.
   */
  create(
    params: WalletSubscriptionParams,
    options?: RequestOptions,
  ): APIPromise<RestrictedNotificationSubscription> {
    const call = { context: 'notifications /v2/notifications/subscriptions params', body: params };
    return this.client.endpoint(operations.createWalletSubscription, call, options);
  }

  /** Payments-network product: `{endpoint, name, enabled, notificationTypes}`. */
  createPaymentsNetwork(
    params: PaymentsNetworkSubscriptionParams,
    options?: RequestOptions,
  ): APIPromise<RestrictedNotificationSubscription> {
    const call = {
      context: 'notifications /v2/payments-network/notifications/subscriptions params',
      body: params,
    };
    return this.client.endpoint(operations.createPaymentsNetworkSubscription, call, options);
  }

  /** FX product: `{endpoint, notificationTypes}`. */
  createFx(
    params: FxSubscriptionParams,
    options?: RequestOptions,
  ): APIPromise<RestrictedNotificationSubscription> {
    const call = { context: 'notifications /v2/fx/notifications/subscriptions params', body: params };
    return this.client.endpoint(operations.createFxSubscription, call, options);
  }

  /**
   * Permissionless multichain transfer product: `{environment, endpoint, addresses, domains,
   * notificationTypes}`; `notificationTypes` accepts `*` and prefix wildcards such as `transfer.*`.
   */
  createTransfer(
    params: TransferSubscriptionParams,
    options?: RequestOptions,
  ): APIPromise<TransferNotificationSubscription> {
    const call = {
      context: 'notifications /v2/notifications/subscriptions/permissionless params',
      body: params,
    };
    return this.client.endpoint(operations.createTransferSubscription, call, options);
  }

  /** The public key that signs deliveries carrying this `X-Circle-Key-Id`; a key id's key never changes. */
  getPublicKey(keyId: string, options?: RequestOptions): APIPromise<NotificationPublicKey> {
    return this.client.endpoint(operations.getNotificationPublicKey, { params: { keyId } }, options);
  }
}
