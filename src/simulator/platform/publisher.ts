/**
 * The messages the platform sends: v1 SubscriptionConfirmations when a subscription is created,
 * and each published notification as a signed v2 body or SNS Notification, queued for delivery.
 */
import type { DeliveryQueue, DeliveryRecord } from './deliveries.js';
import type { PlatformSigners } from './signers.js';
import { SNS_CERT_PATH, SNS_CONFIRM_PATH, SNS_UNSUBSCRIBE_PATH } from './sns-endpoints.js';
import { confirmationMessage, notificationMessage, snsHeaders } from './sns-messages.js';
import type { V1Subscription, V1SubscriptionStore } from './v1-store.js';
import type { V2SubscriptionStore } from './v2-store.js';

export interface PublisherDeps {
  v1: V1SubscriptionStore;
  v2: V2SubscriptionStore;
  queue: DeliveryQueue;
  signers: () => Promise<PlatformSigners>;
  /** SNS SignatureVersion of the v1 messages. */
  snsVersion: '1' | '2';
  /** The simulator clock (epoch ms): message timestamps. */
  now: () => number;
}

export class WebhookPublisher {
  // The base URL each v1 subscription's messages point back to.
  readonly #origins = new Map<string, string>();

  constructor(private readonly deps: PublisherDeps) {}

  #signing(signer: PlatformSigners['sns'], base: string) {
    return { signer, version: this.deps.snsVersion, certUrl: `${base}${SNS_CERT_PATH}` } as const;
  }

  #isoNow(): string {
    return new Date(this.deps.now()).toISOString();
  }

  /** One signed SubscriptionConfirmation per region of a new v1 subscription, pointing back to `base`. */
  async sendConfirmations(subscription: V1Subscription, base: string): Promise<void> {
    this.#origins.set(subscription.id, base);
    const { sns } = await this.deps.signers();
    for (const detail of subscription.details) {
      const message = confirmationMessage(
        {
          messageId: crypto.randomUUID(),
          token: detail.token,
          topicArn: detail.topicArn,
          subscribeUrl: `${base}${SNS_CONFIRM_PATH}?${new URLSearchParams({
            Action: 'ConfirmSubscription',
            TopicArn: detail.topicArn,
            Token: detail.token,
          })}`,
          timestamp: this.#isoNow(),
        },
        this.#signing(sns, base),
      );
      this.deps.queue.enqueue({
        kind: 'v1-confirmation',
        subscriptionId: subscription.id,
        endpoint: subscription.endpoint,
        messageId: message.MessageId,
        headers: snsHeaders(message),
        body: JSON.stringify(message),
      });
    }
  }

  /** The v1 subscription is gone: no message points back for it any more. */
  forget(subscriptionId: string): void {
    this.#origins.delete(subscriptionId);
  }

  clear(): void {
    this.#origins.clear();
  }

  /** Queues `payload` as a `notificationType` webhook to every matching subscription of the entity. */
  async publish(entityId: string, notificationType: string, payload: unknown): Promise<DeliveryRecord[]> {
    const { v1, v2, queue } = this.deps;
    const v2Targets = v2.matching(entityId, notificationType);
    const v1Targets = v1.list(entityId).flatMap((subscription) => {
      const detail = v1.deliveryDetail(subscription);
      const base = this.#origins.get(subscription.id);
      return detail === undefined || base === undefined ? [] : [{ subscription, detail, base }];
    });
    // Most events have no subscriber: the signing keys (an RSA key takes ~0.2 s) are made only
    // once something is really delivered.
    if (v2Targets.length === 0 && v1Targets.length === 0) return [];
    const s = await this.deps.signers();
    const records: DeliveryRecord[] = [];
    const timestamp = this.#isoNow();
    for (const subscription of v2Targets) {
      const notificationId = crypto.randomUUID();
      const body = JSON.stringify({
        subscriptionId: subscription.id,
        notificationId,
        notificationType,
        notification: payload,
        timestamp,
        version: 2,
      });
      records.push(
        queue.enqueue({
          kind: 'v2-notification',
          subscriptionId: subscription.id,
          endpoint: subscription.endpoint,
          notificationType,
          messageId: notificationId,
          headers: s.v2.sign(body).headers,
          body,
        }),
      );
    }
    for (const { subscription, detail, base } of v1Targets) {
      const message = notificationMessage(
        {
          messageId: crypto.randomUUID(),
          topicArn: detail.topicArn,
          message: JSON.stringify({
            clientId: entityId,
            notificationType,
            version: 1,
            notification: payload,
          }),
          timestamp,
          unsubscribeUrl: `${base}${SNS_UNSUBSCRIBE_PATH}?${new URLSearchParams({
            Action: 'Unsubscribe',
            SubscriptionArn: detail.arn,
          })}`,
        },
        this.#signing(s.sns, base),
      );
      records.push(
        queue.enqueue({
          kind: 'v1-notification',
          subscriptionId: subscription.id,
          endpoint: subscription.endpoint,
          notificationType,
          messageId: message.MessageId,
          headers: snsHeaders(message, detail.arn),
          body: JSON.stringify(message),
        }),
      );
    }
    return records;
  }
}
