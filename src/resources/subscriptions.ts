import type { z } from 'zod';
import { operations } from '../contract/operations.js';
import type { CreateV1Params } from '../contract/webhook-subscriptions.js';
import type { APIPromise } from '../core/api-promise.js';
import { MatchVenueError } from '../core/error.js';
import type { RequestOptions } from '../core/request.js';
import { APIResource } from '../core/resource.js';
import type { V1Subscription } from '../generated/schemas.js';

export { isWebhookEndpoint } from '../contract/webhook-subscriptions.js';

/** Parameters of `subscriptions.create`. */
export type V1SubscriptionCreateParams = z.input<typeof CreateV1Params>;

/** A v1 subscription cannot be deleted while one of its region entries is still `pending`. */
export class SubscriptionPendingError extends MatchVenueError {
  static override readonly kind = 'MV_SUBSCRIPTION_PENDING';
  override name = 'SubscriptionPendingError';
  declare readonly code: string;
  readonly subscriptionId: string;
  /** The `subscriptionDetails` entries still pending (their topic `url` and `arn`). */
  readonly pendingDetails: readonly { url: string; arn: string }[];

  constructor(subscriptionId: string, pendingDetails: readonly { url: string; arn: string }[]) {
    super(
      `v1 subscription ${subscriptionId} cannot be deleted while ${pendingDetails.length} of its ` +
        'subscriptionDetails entries are pending; confirm them (open the SubscribeURL of each confirmation ' +
        'message) or wait for the platform to remove them. No DELETE request was sent.',
    );
    this.subscriptionId = subscriptionId;
    this.pendingDetails = pendingDetails;
  }
}

/** Notification API v1 subscriptions (SNS-style, one detail entry per region). */
export class Subscriptions extends APIResource {
  /**
   * Subscribes `endpoint`. Each region's entry starts `pending` and the platform posts a signed
   * SubscriptionConfirmation to the endpoint; a receiver from `match-venue/webhooks` confirms it.
   */
  create(params: V1SubscriptionCreateParams, options?: RequestOptions): APIPromise<V1Subscription> {
    const call = { context: 'subscriptions.create params', body: params };
    return this.client.endpoint(operations.createV1Subscription, call, options);
  }

  /** The active v1 subscriptions of the key's entity. */
  list(options?: RequestOptions): APIPromise<V1Subscription[]> {
    return this.client.endpoint(operations.listV1Subscriptions, {}, options);
  }

  /**
   * Deletes a v1 subscription. Makes one extra call first: it lists the subscriptions and, when
   * the one to delete has a `pending` detail, throws {@link SubscriptionPendingError} without
   * sending the DELETE (the platform would refuse it). A subscription missing from the list is
   * still deleted by id, so the platform gives the authoritative answer.
   */
  async delete(id: string, options?: RequestOptions): Promise<void> {
    const current = (await this.list(options)).find((s) => s.id === id);
    const pending = current?.subscriptionDetails.filter((d) => d.status === 'pending') ?? [];
    if (current && pending.length > 0) {
      throw new SubscriptionPendingError(
        id,
        pending.map((d) => ({ url: d.url, arn: d.arn })),
      );
    }
    // 204 without a body in this contract; a body, if a server sends one, is ignored.
    await this.client.endpoint(operations.deleteV1Subscription, { params: { id } }, options);
  }
}
