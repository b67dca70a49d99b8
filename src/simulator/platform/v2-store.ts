/**
 * v2 webhook subscriptions of the simulator (wallet/contract, payments-network, FX and the
 * permissionless transfer product). Pure state; the HEAD validation happens before `add`.
 */

export type V2Variant = 'wallet' | 'payments-network' | 'fx' | 'transfer';

export interface V2Subscription {
  id: string;
  entityId: string;
  variant: V2Variant;
  name: string;
  endpoint: string;
  enabled: boolean;
  createDate: string;
  updateDate: string;
  notificationTypes: string[];
  restricted?: boolean;
  environment?: string;
  addresses?: string[];
  domains?: number[];
}

/** The response body's `data`: every field but the simulator's bookkeeping. */
export function toV2Wire(subscription: V2Subscription): Omit<V2Subscription, 'entityId' | 'variant'> {
  const { entityId: _entityId, variant: _variant, ...wire } = subscription;
  return wire;
}

/**
 * `*` matches every type; `prefix.*` matches the types under that prefix (the transfer product's
 * wildcard form, honoured for every variant); anything else matches exactly.
 */
export function matchesNotificationType(patterns: readonly string[], type: string): boolean {
  return patterns.some((pattern) => {
    if (pattern === '*') return true;
    if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
    return pattern === type;
  });
}

export class V2SubscriptionStore {
  readonly #subs = new Map<string, V2Subscription>();

  add(subscription: V2Subscription): V2Subscription {
    this.#subs.set(subscription.id, subscription);
    return subscription;
  }

  list(entityId: string): V2Subscription[] {
    return [...this.#subs.values()].filter((s) => s.entityId === entityId);
  }

  all(): V2Subscription[] {
    return [...this.#subs.values()];
  }

  /** Enabled subscriptions of the entity whose types match. */
  matching(entityId: string, notificationType: string): V2Subscription[] {
    return this.list(entityId).filter(
      (s) => s.enabled && matchesNotificationType(s.notificationTypes, notificationType),
    );
  }

  clear(): void {
    this.#subs.clear();
  }
}
