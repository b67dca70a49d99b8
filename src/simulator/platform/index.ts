/**
 * The simulator's platform APIs: configuration, webhook subscriptions (v1 SNS-style and v2) and
 * signed webhook deliveries with retries. Its routes (authenticated `/v1/configuration`,
 * `/v1/notifications/*` and `/v2/*`; unauthenticated `/_sim/sns/*` and `/_sim/platform/*`) go to
 * the HTTP binding through its port, which resolves and serves them. Behaviour and choices: ./README.md.
 */
import type { SimulatorEvent } from '../engine/types.js';
import type { PlatformPort } from '../http/port.js';
import { DeliveryQueue, type DeliveryRecord, type Sleep } from './deliveries.js';
import { EndpointGuard, type WebhookLookup, type WebhookTargets } from './endpoint-guard.js';
import { WebhookPublisher } from './publisher.js';
import { platformRoutes } from './routes.js';
import { createDefaultSigners, type PlatformSigners } from './signers.js';
import { platformControlRoutes } from './sns-endpoints.js';
import { type PlatformMode, toV1Wire, V1SubscriptionStore } from './v1-store.js';
import { toV2Wire, V2SubscriptionStore } from './v2-store.js';

export type { DeliveryAttempt, DeliveryKind, DeliveryRecord, DeliveryState, Sleep } from './deliveries.js';
export type { WebhookLookup, WebhookTargets } from './endpoint-guard.js';
export type { PlatformSigners, SnsSigner, V2Signer } from './signers.js';
export type { PlatformMode, V1DetailStatus, V1SubscriptionWire } from './v1-store.js';
export { V1_ACTIVE_LIMIT, V1_PENDING_MAX_AGE_MS } from './v1-store.js';
export type { V2Subscription, V2Variant } from './v2-store.js';

/** Default retry delays (ms) before the 2nd, 3rd and 4th delivery attempt: short enough for a demo. */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [1_000, 5_000, 30_000];

export {
  PLATFORM_STATE_PATH,
  SNS_CERT_PATH,
  SNS_CONFIRM_PATH,
  SNS_UNSUBSCRIBE_PATH,
} from './sns-endpoints.js';

export interface PlatformDeps {
  /** The simulator clock (epoch ms): pending v1 details expire on it. */
  now: () => number;
  /** Used for every request to subscriber endpoints (HEAD validation, deliveries). */
  fetch: typeof fetch;
  /**
   * Where subscriber endpoints may be, asked before every create and every request: `public`
   * refuses loopback, private and link-local addresses (endpoint-guard.ts). Default `any`.
   */
  webhookTargets?: () => WebhookTargets;
  /** Resolves endpoint host names for that check; default node:dns `lookup` with `all: true`. */
  lookup?: WebhookLookup;
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

/**
 * The platform: its routes (the authenticated ones, and the simulator-only ones under /_sim/sns/
 * and /_sim/platform/), which the HTTP binding resolves and serves through its port, and the
 * webhook deliveries.
 */
export interface Platform extends PlatformPort {
  readonly mode: PlatformMode;
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
  const guard = new EndpointGuard({
    targets: deps.webhookTargets ?? (() => 'any'),
    ...(deps.lookup ? { lookup: deps.lookup } : {}),
  });
  const queue = new DeliveryQueue({
    fetch: deps.fetch,
    refusal: (endpoint) => guard.refusal(endpoint),
    retrySchedule: deps.retrySchedule ?? DEFAULT_RETRY_SCHEDULE,
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
    ...(deps.deliveryTimeoutMs === undefined ? {} : { timeoutMs: deps.deliveryTimeoutMs }),
  });
  let timeoutMs = deps.deliveryTimeoutMs ?? 5000;
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

  const publisher = new WebhookPublisher({
    v1,
    v2,
    queue,
    signers,
    snsVersion: deps.snsSignatureVersion ?? '2',
    now: deps.now,
  });

  function baseUrlFor(req: Request): string {
    const configured = typeof deps.baseUrl === 'function' ? deps.baseUrl() : deps.baseUrl;
    return (configured ?? new URL(req.url).origin).replace(/\/+$/, '');
  }

  function track<T>(promise: Promise<T>): Promise<T> {
    const tracked = promise.finally(() => publishing.delete(tracked));
    publishing.add(tracked);
    return tracked;
  }

  const platform: Platform = {
    mode: deps.mode,

    routes: platformRoutes((req) => ({
      v1,
      v2,
      fetch: deps.fetch,
      guard,
      timeoutMs,
      now: deps.now,
      masterWalletId: deps.masterWalletId ?? derivedMasterWalletId,
      signers,
      onV1Created: (subscription) => track(publisher.sendConfirmations(subscription, baseUrlFor(req))),
      onV1Deleted: (subscription) => publisher.forget(subscription.id),
    })),

    controlRoutes: platformControlRoutes({ v1, signers, state: () => platform.state() }),

    publish(entityId, notificationType, payload) {
      return track(publisher.publish(entityId, notificationType, payload));
    },

    onSimulatorEvent(event) {
      if (event.channel !== 'account') return;
      track(publisher.publish(event.entityId, event.event, event.data)).catch(() => undefined);
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
      publisher.clear();
    },

    async close() {
      await Promise.allSettled([...publishing]);
      await queue.close();
    },
  };
  return platform;
}
