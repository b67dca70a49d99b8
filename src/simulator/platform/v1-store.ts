/**
 * v1 (SNS-style) webhook subscriptions of the simulator: pure state on an injected clock.
 *
 * Choices the spec leaves open (docs: src/simulator/platform/README.md):
 * - A subscription counts toward the active limit from creation until it is deleted or its
 *   last pending detail is auto-removed, so pending subscriptions cannot be piled up.
 * - An expired pending detail is removed; a subscription left without details is removed.
 */

export type PlatformMode = 'sandbox' | 'production';
export type V1DetailStatus = 'pending' | 'confirmed' | 'deleted';

export interface V1Detail {
  readonly region: string;
  /** Topic identifier (the wire's `url`). */
  readonly topicArn: string;
  /** Subscription identifier (the wire's `arn`). */
  readonly arn: string;
  readonly token: string;
  readonly createdAt: number;
  status: V1DetailStatus;
}

export interface V1Subscription {
  readonly id: string;
  readonly entityId: string;
  readonly endpoint: string;
  readonly createdAt: number;
  details: V1Detail[];
}

export interface V1SubscriptionWire {
  id: string;
  endpoint: string;
  subscriptionDetails: { url: string; arn: string; status: V1DetailStatus }[];
}

export const V1_ACTIVE_LIMIT: Readonly<Record<PlatformMode, number>> = { sandbox: 3, production: 1 };
export const V1_PENDING_MAX_AGE_MS: Readonly<Record<PlatformMode, number>> = {
  sandbox: 30 * 24 * 60 * 60 * 1000,
  production: 72 * 60 * 60 * 1000,
};
export const DEFAULT_V1_REGIONS: readonly string[] = ['us-east-1', 'us-west-2'];
/** A documentation-range AWS account id: the topics are obviously simulated. */
export const SIM_AWS_ACCOUNT = '000000000000';

export type V1CreateResult =
  | { ok: true; subscription: V1Subscription }
  | { ok: false; reason: 'limit'; limit: number };

export type V1DeleteResult =
  | { ok: true; subscription: V1Subscription }
  | { ok: false; reason: 'not-found' }
  | { ok: false; reason: 'pending'; pendingRegions: string[] };

export interface V1StoreOptions {
  now: () => number;
  mode: PlatformMode;
  regions?: readonly string[];
  randomId?: () => string;
  randomToken?: () => string;
}

export function toV1Wire(subscription: V1Subscription): V1SubscriptionWire {
  return {
    id: subscription.id,
    endpoint: subscription.endpoint,
    subscriptionDetails: subscription.details.map((d) => ({ url: d.topicArn, arn: d.arn, status: d.status })),
  };
}

function randomHex(bytes: number): string {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return Array.from(buf, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The SNS topic the simulator "publishes" an entity's v1 events on, per region. */
export function topicArnFor(region: string, entityId: string): string {
  const safe = entityId.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 200);
  return `arn:aws:sns:${region}:${SIM_AWS_ACCOUNT}:match-venue-sim-${safe}`;
}

export class V1SubscriptionStore {
  readonly #subs = new Map<string, V1Subscription>();
  readonly #byToken = new Map<string, { subscription: V1Subscription; detail: V1Detail }>();
  readonly #now: () => number;
  readonly #regions: readonly string[];
  readonly #randomId: () => string;
  readonly #randomToken: () => string;
  readonly mode: PlatformMode;

  constructor(options: V1StoreOptions) {
    this.#now = options.now;
    this.mode = options.mode;
    this.#regions = options.regions ?? DEFAULT_V1_REGIONS;
    this.#randomId = options.randomId ?? (() => crypto.randomUUID());
    this.#randomToken = options.randomToken ?? (() => randomHex(64));
  }

  get limit(): number {
    return V1_ACTIVE_LIMIT[this.mode];
  }

  get pendingMaxAgeMs(): number {
    return V1_PENDING_MAX_AGE_MS[this.mode];
  }

  /** Drops pending details older than the mode's maximum age, and subscriptions left empty. */
  prune(): void {
    const cutoff = this.#now() - this.pendingMaxAgeMs;
    for (const subscription of this.#subs.values()) {
      const kept: V1Detail[] = [];
      for (const detail of subscription.details) {
        if (detail.status === 'pending' && detail.createdAt <= cutoff) {
          this.#byToken.delete(detail.token);
        } else {
          kept.push(detail);
        }
      }
      subscription.details = kept;
      if (kept.length === 0) this.#subs.delete(subscription.id);
    }
  }

  create(entityId: string, endpoint: string): V1CreateResult {
    this.prune();
    if (this.list(entityId).length >= this.limit) return { ok: false, reason: 'limit', limit: this.limit };
    const id = this.#randomId();
    const createdAt = this.#now();
    const subscription: V1Subscription = { id, entityId, endpoint, createdAt, details: [] };
    for (const region of this.#regions) {
      const topicArn = topicArnFor(region, entityId);
      const detail: V1Detail = {
        region,
        topicArn,
        arn: `${topicArn}:${this.#randomId()}`,
        token: this.#randomToken(),
        createdAt,
        status: 'pending',
      };
      subscription.details.push(detail);
      this.#byToken.set(detail.token, { subscription, detail });
    }
    this.#subs.set(id, subscription);
    return { ok: true, subscription };
  }

  list(entityId: string): V1Subscription[] {
    this.prune();
    return [...this.#subs.values()].filter((s) => s.entityId === entityId);
  }

  get(entityId: string, id: string): V1Subscription | undefined {
    this.prune();
    const subscription = this.#subs.get(id);
    return subscription?.entityId === entityId ? subscription : undefined;
  }

  /** All subscriptions of every entity (for the control plane's state view). */
  all(): V1Subscription[] {
    this.prune();
    return [...this.#subs.values()];
  }

  delete(entityId: string, id: string): V1DeleteResult {
    const subscription = this.get(entityId, id);
    if (subscription === undefined) return { ok: false, reason: 'not-found' };
    const pending = subscription.details.filter((d) => d.status === 'pending');
    if (pending.length > 0)
      return { ok: false, reason: 'pending', pendingRegions: pending.map((d) => d.region) };
    for (const detail of subscription.details) this.#byToken.delete(detail.token);
    this.#subs.delete(id);
    return { ok: true, subscription };
  }

  /** Confirms the detail the token was issued for; undefined for an unknown or expired token. */
  confirm(token: string): { subscription: V1Subscription; detail: V1Detail } | undefined {
    this.prune();
    const found = this.#byToken.get(token);
    if (found === undefined) return undefined;
    if (found.detail.status === 'pending') found.detail.status = 'confirmed';
    return found;
  }

  /** Marks a detail `deleted` (the SNS UnsubscribeURL); the subscription itself stays listed. */
  unsubscribe(arn: string): V1Detail | undefined {
    for (const subscription of this.#subs.values()) {
      const detail = subscription.details.find((d) => d.arn === arn);
      if (detail !== undefined) {
        detail.status = 'deleted';
        return detail;
      }
    }
    return undefined;
  }

  /** The detail a notification for this subscription goes through: the first confirmed one. */
  deliveryDetail(subscription: V1Subscription): V1Detail | undefined {
    return subscription.details.find((d) => d.status === 'confirmed');
  }

  clear(): void {
    this.#subs.clear();
    this.#byToken.clear();
  }
}
