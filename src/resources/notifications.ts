import type { z } from 'zod';
import {
  FxParams,
  PaymentsNetworkParams,
  TransferParams,
  WalletParams,
} from '../contract/webhook-subscriptions.js';
import type { RequestOptions } from '../core/api-client.js';
import type { APIPromise } from '../core/api-promise.js';
import { path } from '../core/path.js';
import { APIResource } from '../core/resource.js';
import { validate } from '../core/validation.js';
import { NotificationPublicKey, NotificationSubscription } from '../generated/schemas.js';

export type WalletSubscriptionParams = z.input<typeof WalletParams>;
export type PaymentsNetworkSubscriptionParams = z.input<typeof PaymentsNetworkParams>;
export type FxSubscriptionParams = z.input<typeof FxParams>;
export type TransferSubscriptionParams = z.input<typeof TransferParams>;

/** Wallet, contract, payments-network and FX subscriptions carry `restricted`, never the transfer fields. */
const RestrictedSubscription = NotificationSubscription.omit({
  environment: true,
  addresses: true,
  domains: true,
});
/** The permissionless transfer product's subscription: `environment`, `addresses`, `domains`. */
const TransferSubscription = NotificationSubscription.omit({ restricted: true });

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
    return this.#create(
      '/v2/notifications/subscriptions',
      WalletParams,
      params,
      RestrictedSubscription,
      options,
    );
  }

  /** Payments-network product: `{endpoint, name, enabled, notificationTypes}`. */
  createPaymentsNetwork(
    params: PaymentsNetworkSubscriptionParams,
    options?: RequestOptions,
  ): APIPromise<RestrictedNotificationSubscription> {
    return this.#create(
      '/v2/payments-network/notifications/subscriptions',
      PaymentsNetworkParams,
      params,
      RestrictedSubscription,
      options,
    );
  }

  /** FX product: `{endpoint, notificationTypes}`. */
  createFx(
    params: FxSubscriptionParams,
    options?: RequestOptions,
  ): APIPromise<RestrictedNotificationSubscription> {
    return this.#create(
      '/v2/fx/notifications/subscriptions',
      FxParams,
      params,
      RestrictedSubscription,
      options,
    );
  }

  /**
   * Permissionless multichain transfer product: `{environment, endpoint, addresses, domains,
   * notificationTypes}`; `notificationTypes` accepts `*` and prefix wildcards such as `transfer.*`.
   */
  createTransfer(
    params: TransferSubscriptionParams,
    options?: RequestOptions,
  ): APIPromise<TransferNotificationSubscription> {
    return this.#create(
      '/v2/notifications/subscriptions/permissionless',
      TransferParams,
      params,
      TransferSubscription,
      options,
    );
  }

  /** The public key that signs deliveries carrying this `X-Circle-Key-Id`; a key id's key never changes. */
  getPublicKey(keyId: string, options?: RequestOptions): APIPromise<NotificationPublicKey> {
    return this.client.call(() => ({
      ...options,
      method: 'GET',
      path: path`/v2/notifications/publicKey/${keyId}`,
      responseSchema: NotificationPublicKey,
    }));
  }

  #create<P, R>(
    route: string,
    paramsSchema: z.ZodType<P>,
    params: unknown,
    responseSchema: z.ZodType<R>,
    options: RequestOptions | undefined,
  ): APIPromise<R> {
    return this.client.call(() => ({
      ...options,
      method: 'POST',
      path: route,
      body: validate(paramsSchema, params, `notifications ${route} params`),
      responseSchema,
    }));
  }
}
