/**
 * The simulator's platform APIs: configuration, webhook subscriptions (v1 SNS-style and v2) and
 * signed webhook deliveries with retries. SIM's router forwards authenticated `/v1/configuration`,
 * `/v1/notifications/*` and `/v2/*` requests to `handle`, and unauthenticated `/_sim/sns/*` and
 * `/_sim/platform/*` requests to `handleControl`. Behaviour and choices: ./README.md.
 */
import type { SimulatorEvent } from '../engine/types.js';
import { dataResponse } from '../http/responses.js';
import { DeliveryQueue, type DeliveryRecord, type Sleep } from './deliveries.js';
import { routePlatform } from './routes.js';
import { createDefaultSigners, type PlatformSigners } from './signers.js';
import { confirmResponse, unsubscribeResponse } from './sns-endpoints.js';
import { confirmationMessage, notificationMessage, snsHeaders } from './sns-messages.js';
import { type PlatformMode, toV1Wire, type V1Subscription, V1SubscriptionStore } from './v1-store.js';
import { toV2Wire, V2SubscriptionStore } from './v2-store.js';

export type { DeliveryAttempt, DeliveryKind, DeliveryRecord, DeliveryState, Sleep } from './deliveries.js';
export type { PlatformSigners, SnsSigner, V2Signer } from './signers.js';
export type { PlatformMode, V1DetailStatus, V1SubscriptionWire } from './v1-store.js';
export { V1_ACTIVE_LIMIT, V1_PENDING_MAX_AGE_MS } from './v1-store.js';
export type { V2Subscription, V2Variant } from './v2-store.js';

/** Default retry delays (ms) before the 2nd, 3rd and 4th delivery attempt: short enough for a demo. */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [1_000, 5_000, 30_000];

/** Paths of the simulator-only SNS endpoints, relative to the simulator's base URL. */
export const SNS_CERT_PATH = '/_sim/sns/cert.pem';
export const SNS_CONFIRM_PATH = '/_sim/sns/confirm';
export const SNS_UNSUBSCRIBE_PATH = '/_sim/sns/unsubscribe';
export const PLATFORM_STATE_PATH = '/_sim/platform/state';

export interface PlatformDeps {
  /** The simulator clock (epoch ms): pending v1 details expire on it. */
  now: () => number;
  /** Used for every request to subscriber endpoints (HEAD validation, deliveries). */
  fetch: typeof fetch;
  /** sandbox: 3 active v1 subscriptions, pending removed after 30 days; production: 1 and 72 hours. */
  mode: PlatformMode;
  /**
   * The simulator's public base URL, used in SigningCertURL / SubscribeURL / UnsubscribeURL.
   * Default: the origin of the request that created the subscription.
   */
  baseUrl?: string | (() => string | undefined);
  /** Delays (ms) between delivery attempts; attempts = 1 + length. Default {@link DEFAULT_RETRY_SCHEDULE}. */
  retrySchedule?: readonly number[];
  /** Waits between attempts (real time, never the simulator clock). Default: setTimeout. */
  sleep?: Sleep;
  /** Per-attempt timeout for deliveries and HEAD validation (default 5000 ms). */
  deliveryTimeoutMs?: number;
  /** Regions, one `subscriptionDetails` entry each (default us-east-1, us-west-2). */
  regions?: readonly string[];
  /** SNS SignatureVersion of the simulator's messages: '1' RSA-SHA1, '2' RSA-SHA256 (default '2'). */
  snsSignatureVersion?: '1' | '2';
  /** `payments.masterWalletId` of GET /v1/configuration; default: a stable id derived from the entity. */
  masterWalletId?: (entityId: string) => string;
  /** Signing keys; default: fresh ones from the webhooks toolkit's test signers, made on first use. */
  signers?: PlatformSigners | Promise<PlatformSigners>;
}

/** Delivery settings that can change after creation. */
export interface PlatformSettings {
  retrySchedule?: readonly number[];
  sleep?: Sleep;
  deliveryTimeoutMs?: number;
}

export interface PlatformState {
  mode: PlatformMode;
  v1Subscriptions: (ReturnType<typeof toV1Wire> & { entityId: string })[];
  v2Subscriptions: (ReturnType<typeof toV2Wire> & { entityId: string })[];
  deliveries: readonly DeliveryRecord[];
  publicKeyId: string | undefined;
}

export interface Platform {
  readonly mode: PlatformMode;
  /** Authenticated platform routes; undefined when the path is not a platform path. */
  handle(req: Request, ctx: { entityId: string }): Promise<Response | undefined>;
  /** Unauthenticated simulator-only routes under /_sim/sns/ and /_sim/platform/; undefined otherwise. */
  handleControl(req: Request): Promise<Response | undefined>;
  /**
   * Sends `payload` as a `notificationType` webhook to every matching subscription of the entity:
   * v2 subscriptions whose notificationTypes match, and every v1 subscription with a confirmed
   * detail (v1 has no type filter). Resolves once the deliveries are queued.
   */
  publish(entityId: string, notificationType: string, payload: unknown): Promise<DeliveryRecord[]>;
  /** Pass to `sim.onEvent`: publishes account events, ignores market events. */
  onSimulatorEvent(event: SimulatorEvent): void;
  /** The delivery log, oldest first (records update live as attempts happen). */
  deliveries(): readonly DeliveryRecord[];
  /**
   * Resolves when no delivery (or queued publish) is in flight. Retry timers are unref'd, so a
   * process exits with retries pending; awaiting idle() holds it open until they are done.
   */
  idle(): Promise<void>;
  state(): PlatformState;
  signers(): Promise<PlatformSigners>;
  /**
   * Changes delivery settings after creation (the simulator creates the platform itself):
   * e.g. `sim.platform.configure({ retrySchedule: [10, 20, 40] })` for fast retries in tests.
   */
  configure(options: PlatformSettings): void;
  /** Forgets every subscription and delivery; stops retries in flight. */
  reset(): Promise<void>;
  /** Stops retries and waits for attempts in flight to end. */
  close(): Promise<void>;
}

/** A stable 10-digit numeric id per entity, shaped like the platform's master wallet ids. */
function derivedMasterWalletId(entityId: string): string {
  let hash = 0x811c9dc5;
  for (const char of entityId) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return String(1_000_000_000 + (hash % 1_000_000_000));
}

export function createPlatform(deps: PlatformDeps): Platform {
  const v1 = new V1SubscriptionStore({
    now: deps.now,
    mode: deps.mode,
    ...(deps.regions ? { regions: deps.regions } : {}),
  });
  const v2 = new V2SubscriptionStore();
  const queue = new DeliveryQueue({
    fetch: deps.fetch,
    retrySchedule: deps.retrySchedule ?? DEFAULT_RETRY_SCHEDULE,
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
    ...(deps.deliveryTimeoutMs === undefined ? {} : { timeoutMs: deps.deliveryTimeoutMs }),
  });
  const snsVersion = deps.snsSignatureVersion ?? '2';
  let timeoutMs = deps.deliveryTimeoutMs ?? 5000;
  // The base URL each v1 subscription's messages point back to.
  const origins = new Map<string, string>();
  const publishing = new Set<Promise<unknown>>();
  let signersPromise: Promise<PlatformSigners> | undefined;
  let knownKeyId: string | undefined;

  function signers(): Promise<PlatformSigners> {
    signersPromise ??= Promise.resolve(deps.signers ?? createDefaultSigners()).then((s) => {
      knownKeyId = s.v2.keyId;
      return s;
    });
    return signersPromise;
  }

  function baseUrlFor(req: Request): string {
    const configured = typeof deps.baseUrl === 'function' ? deps.baseUrl() : deps.baseUrl;
    return (configured ?? new URL(req.url).origin).replace(/\/+$/, '');
  }

  function isoNow(): string {
    return new Date(deps.now()).toISOString();
  }

  async function sendConfirmations(subscription: V1Subscription, base: string): Promise<void> {
    const { sns } = await signers();
    const signing = { signer: sns, version: snsVersion, certUrl: `${base}${SNS_CERT_PATH}` } as const;
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
          timestamp: isoNow(),
        },
        signing,
      );
      queue.enqueue({
        kind: 'v1-confirmation',
        subscriptionId: subscription.id,
        endpoint: subscription.endpoint,
        messageId: message.MessageId,
        headers: snsHeaders(message),
        body: JSON.stringify(message),
      });
    }
  }

  async function publish(
    entityId: string,
    notificationType: string,
    payload: unknown,
  ): Promise<DeliveryRecord[]> {
    const v2Targets = v2.matching(entityId, notificationType);
    const v1Targets = v1.list(entityId).flatMap((subscription) => {
      const detail = v1.deliveryDetail(subscription);
      const base = origins.get(subscription.id);
      return detail === undefined || base === undefined ? [] : [{ subscription, detail, base }];
    });
    // Most events have no subscriber: the signing keys (an RSA key takes ~0.2 s) are made only
    // once something is really delivered.
    if (v2Targets.length === 0 && v1Targets.length === 0) return [];
    const s = await signers();
    const records: DeliveryRecord[] = [];
    const timestamp = isoNow();
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
        { signer: s.sns, version: snsVersion, certUrl: `${base}${SNS_CERT_PATH}` },
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

  function track<T>(promise: Promise<T>): Promise<T> {
    const tracked = promise.finally(() => publishing.delete(tracked));
    publishing.add(tracked);
    return tracked;
  }

  const platform: Platform = {
    mode: deps.mode,

    handle(req, ctx) {
      return routePlatform(req, ctx, {
        v1,
        v2,
        fetch: deps.fetch,
        timeoutMs,
        now: deps.now,
        masterWalletId: deps.masterWalletId ?? derivedMasterWalletId,
        signers,
        async onV1Created(subscription) {
          const base = baseUrlFor(req);
          origins.set(subscription.id, base);
          await track(sendConfirmations(subscription, base));
        },
        onV1Deleted(subscription) {
          origins.delete(subscription.id);
        },
      });
    },

    async handleControl(req) {
      const url = new URL(req.url);
      const method = req.method.toUpperCase();
      if (url.pathname === SNS_CERT_PATH && method === 'GET') {
        const { sns } = await signers();
        return new Response(sns.certificatePem, {
          status: 200,
          headers: { 'content-type': 'application/x-pem-file' },
        });
      }
      if (url.pathname === SNS_CONFIRM_PATH && method === 'GET') {
        return confirmResponse(v1, url);
      }
      if (url.pathname === SNS_UNSUBSCRIBE_PATH && method === 'GET') {
        return unsubscribeResponse(v1, url);
      }
      if (url.pathname === PLATFORM_STATE_PATH && method === 'GET') {
        return dataResponse(200, platform.state());
      }
      return undefined;
    },

    publish(entityId, notificationType, payload) {
      return track(publish(entityId, notificationType, payload));
    },

    onSimulatorEvent(event) {
      if (event.channel !== 'account') return;
      track(publish(event.entityId, event.event, event.data)).catch(() => undefined);
    },

    deliveries: () => queue.log(),

    async idle() {
      // Waiting retries keep the process alive only while someone waits for them (see keepAlive).
      const release = queue.keepAlive();
      try {
        while (publishing.size > 0) {
          await Promise.allSettled([...publishing]);
        }
        await queue.idle();
      } finally {
        release();
      }
    },

    state() {
      return {
        mode: deps.mode,
        v1Subscriptions: v1.all().map((s) => ({ entityId: s.entityId, ...toV1Wire(s) })),
        v2Subscriptions: v2.all().map((s) => ({ ...toV2Wire(s), entityId: s.entityId })),
        deliveries: queue.log(),
        publicKeyId: knownKeyId,
      };
    },

    signers,

    configure(options) {
      if (options.deliveryTimeoutMs !== undefined) timeoutMs = options.deliveryTimeoutMs;
      queue.configure({
        ...(options.retrySchedule ? { retrySchedule: options.retrySchedule } : {}),
        ...(options.sleep ? { sleep: options.sleep } : {}),
        ...(options.deliveryTimeoutMs === undefined ? {} : { timeoutMs: options.deliveryTimeoutMs }),
      });
    },

    async reset() {
      await Promise.allSettled([...publishing]);
      await queue.reset();
      v1.clear();
      v2.clear();
      origins.clear();
    },

    async close() {
      await Promise.allSettled([...publishing]);
      await queue.close();
    },
  };
  return platform;
}
