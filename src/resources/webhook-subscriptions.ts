import { endpoints } from '../generated/endpoints.js';
import type { ClientCore } from '../core/api-client.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request.js';
import type {
  FxSubscriptionRequest,
  NotificationPublicKey,
  PaymentsNetworkSubscriptionRequest,
  RestrictedNotificationSubscription,
  TransferNotificationSubscription,
  TransferSubscriptionRequest,
  WalletSubscriptionRequest,
} from '../generated/models.js';

// The endpoint rule (https, or http on loopback) is the OpenAPI's pattern on HttpsUrl, checked
// by the generated checks on both sides; the types are the contract's. Each `*Params` is an
// interface over its wire body, which stays inside, so the API reference lists the fields here.

/** Parameters of {@link WebhookSubscriptions.create} (wallet and contract products). */
export interface WalletSubscriptionParams extends WalletSubscriptionRequest {}
/** Parameters of {@link WebhookSubscriptions.createPaymentsNetwork}. */
export interface PaymentsNetworkSubscriptionParams extends PaymentsNetworkSubscriptionRequest {}
/** Parameters of {@link WebhookSubscriptions.createFx}. */
export interface FxSubscriptionParams extends FxSubscriptionRequest {}
/** Parameters of {@link WebhookSubscriptions.createTransfer}. */
export interface TransferSubscriptionParams extends TransferSubscriptionRequest {}

/** A v2 subscription of any product. */
export type NotificationSubscription = RestrictedNotificationSubscription | TransferNotificationSubscription;

/** Notification API v2 subscriptions (one create per product) and the signing keys of deliveries. */
export class WebhookSubscriptions {
  /** The request pipeline this resource calls (held, so it is not part of the resource's API). */
  readonly #client: ClientCore;

  /**
   * Made by MatchVenue, one per client.
   * @internal
   */
  constructor(client: ClientCore) {
    this.#client = client;
  }
  /**
   * Wallet and contract products: `POST /v2/notifications/subscriptions`. The platform sends a
   * HEAD request to `endpoint` first and refuses the subscription (400, code 2) unless it answers.
   */
  create(
    params: WalletSubscriptionParams,
    options?: RequestOptions,
  ): APIPromise<RestrictedNotificationSubscription> {
    const call = { context: 'webhookSubscriptions.create params', body: params };
    return this.#client.endpoint(endpoints.createWalletSubscription, call, options);
  }

  /** Payments-network product: `{endpoint, name, enabled, notificationTypes}`. */
  createPaymentsNetwork(
    params: PaymentsNetworkSubscriptionParams,
    options?: RequestOptions,
  ): APIPromise<RestrictedNotificationSubscription> {
    const call = {
      context: 'webhookSubscriptions.createPaymentsNetwork params',
      body: params,
    };
    return this.#client.endpoint(endpoints.createPaymentsNetworkSubscription, call, options);
  }

  /** FX product: `{endpoint, notificationTypes}`. */
  createFx(
    params: FxSubscriptionParams,
    options?: RequestOptions,
  ): APIPromise<RestrictedNotificationSubscription> {
    const call = { context: 'webhookSubscriptions.createFx params', body: params };
    return this.#client.endpoint(endpoints.createFxSubscription, call, options);
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
      context: 'webhookSubscriptions.createTransfer params',
      body: params,
    };
    return this.#client.endpoint(endpoints.createTransferSubscription, call, options);
  }

  /** The public key that signs deliveries carrying this `X-Circle-Key-Id`; a key id's key never changes. */
  getPublicKey(keyId: string, options?: RequestOptions): APIPromise<NotificationPublicKey> {
    return this.#client.endpoint(endpoints.getNotificationPublicKey, { params: { keyId } }, options);
  }
}

// The API's data of this resource and what its calls take, reached as
// `WebhookSubscriptions.NotificationSubscription`, ... (one namespace per resource, merged with the
// class: the main entry exports the resource, not each of its types).
export declare namespace WebhookSubscriptions {
  export type {
    FxSubscriptionParams,
    NotificationPublicKey,
    NotificationSubscription,
    PaymentsNetworkSubscriptionParams,
    RestrictedNotificationSubscription,
    TransferNotificationSubscription,
    TransferSubscriptionParams,
    WalletSubscriptionParams,
  };
}
