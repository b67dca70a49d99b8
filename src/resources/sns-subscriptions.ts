import { endpoints } from '../generated/endpoints.js';
import type { ClientCore } from '../core/api-client.js';
import { APIPromise, type RawResponse } from '../core/api-promise.js';
import { type APIError, MatchVenueError, type OutcomeUnknownError } from '../core/error.js';
import type { RequestOptions } from '../core/request.js';
import { type Absence, outcomeOf, type ResolveOptions, resolveUnknownKey } from '../core/resolve-unknown.js';
import type { V1Subscription, V1SubscriptionDetail, V1SubscriptionRequest } from '../generated/models.js';

/** Parameters of {@link SnsSubscriptions.create}; `endpoint` must be https (or http on a loopback host). */
export interface V1SubscriptionCreateParams extends V1SubscriptionRequest {}

/**
 * A v1 subscription cannot be deleted while one of its region entries is still `pending` (kind
 * `MV_SUBSCRIPTION_PENDING`); thrown by {@link SnsSubscriptions.delete} before it sends the DELETE.
 */
export class SubscriptionPendingError extends MatchVenueError {
  static override readonly kind = 'MV_SUBSCRIPTION_PENDING';
  /** The class name. */
  override name = 'SubscriptionPendingError';
  /** The subscription that was to be deleted. */
  readonly subscriptionId: string;
  /** The `subscriptionDetails` entries still pending. */
  readonly pendingDetails: readonly {
    /** Topic identifier. */
    url: string;
    /** Subscription identifier. */
    arn: string;
  }[];

  /**
   * Made by {@link SnsSubscriptions.delete}.
   * @internal
   */
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

/** What {@link SnsSubscriptions.resolveUnknown} found: the subscription, or an absence (final or for now). */
export type SubscriptionResolution =
  | {
      /** The create landed. */
      status: 'found';
      /** The subscription it made. */
      subscription: V1Subscription;
    }
  | Absence;

/** `venue.snsSubscriptions`: Notification API v1 webhook subscriptions, delivered as SNS messages (one detail entry per region). */
export class SnsSubscriptions {
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
   * Subscribes `endpoint`. Each region's entry starts `pending` and the platform posts a signed
   * SubscriptionConfirmation to the endpoint; a receiver from `match-venue/webhooks` confirms it.
   * An endpoint that is not https (outside loopback) rejects with ValidationError before sending.
   */
  create(params: V1SubscriptionCreateParams, options?: RequestOptions): APIPromise<V1Subscription> {
    const call = { context: 'snsSubscriptions.create params', body: params };
    return this.#client.endpoint(endpoints.createV1Subscription, call, options);
  }

  /**
   * Settles an OutcomeUnknownError of `create` (a create is never sent twice: a second would make a
   * second subscription): lists the subscriptions and looks for one with the request's endpoint.
   * Resolves to `{ status: 'found', subscription }`, or an absence, final once the settle window
   * has passed since the create's last attempt (`{ wait: true }` waits for that). The endpoint
   * must be one this entity subscribes once; several matches resolve to the newest.
   */
  async resolveUnknown(
    error: OutcomeUnknownError,
    options?: ResolveOptions,
  ): Promise<SubscriptionResolution> {
    const outcome = outcomeOf(error, 'createV1Subscription', 'snsSubscriptions.resolveUnknown');
    const { endpoint } = outcome.request as V1SubscriptionRequest;
    const look = async () => {
      const matches = (await this.list(options)).filter((s) => s.endpoint === endpoint);
      return matches.sort((a, b) => String(b.createDate).localeCompare(String(a.createDate)))[0];
    };
    const target = { key: undefined, operation: outcome.operation, settlesAt: outcome.settlesAt };
    const answer = await resolveUnknownKey(this.#client, target, look, options);
    return answer.status === 'found' ? { status: 'found', subscription: answer.value } : answer;
  }

  /** The active v1 subscriptions of the key's entity. */
  list(options?: RequestOptions): APIPromise<V1Subscription[]> {
    return this.#client.endpoint(endpoints.listV1Subscriptions, {}, options);
  }

  /**
   * Deletes a v1 subscription. Makes one extra call first: it lists the subscriptions and, when
   * the one to delete has a `pending` detail, throws {@link SubscriptionPendingError} without
   * sending the DELETE (the platform would refuse it). A subscription missing from the list is
   * still deleted by id, so the platform gives the authoritative answer. `.withResponse()` gives
   * the DELETE's response.
   */
  delete(id: string, options?: RequestOptions): APIPromise<void> {
    return APIPromise.from<void>(this.#delete(id, options));
  }

  async #delete(id: string, options?: RequestOptions): Promise<{ data: undefined; raw: RawResponse }> {
    const current = (await this.list(options)).find((s) => s.id === id);
    const pending = current?.subscriptionDetails.filter((d) => d.status === 'pending') ?? [];
    if (current && pending.length > 0) {
      throw new SubscriptionPendingError(
        id,
        pending.map((d) => ({ url: d.url, arn: d.arn })),
      );
    }
    // 204 without a body in this contract; a body, if a server sends one, is ignored. A retry whose
    // earlier attempt deleted it meets a 404: that attempt's success is the answer.
    const settleRefusal = async (refusal: APIError) =>
      refusal.status === 404
        ? {
            data: undefined,
            response: { status: 204, headers: refusal.headers, requestId: refusal.requestId },
          }
        : undefined;
    const call = { params: { id }, settleRefusal };
    const { raw } = await APIPromise.settle(
      this.#client.endpoint(endpoints.deleteV1Subscription, call, options),
    );
    return { data: undefined, raw };
  }
}

// The API's data of this resource and what its calls take, reached as
// `SnsSubscriptions.V1Subscription`, ... (one namespace per resource, merged with the class: the
// main entry exports the resource, not each of its types).
export declare namespace SnsSubscriptions {
  export type { SubscriptionResolution, V1Subscription, V1SubscriptionCreateParams, V1SubscriptionDetail };
}
