interface Seen {
  updatedAt: number;
  status: string;
  /** Synthesized from REST: a live event restating it is a duplicate. */
  fromRest: boolean;
}

/**
 * Remembers the last (updatedAt, status) delivered per order, so a REST reconciliation never
 * repeats a change the consumer already saw and never goes back in time. Bounded (LRU).
 */
export class OrderTracker {
  private readonly last = new Map<string, Seen>();

  constructor(private readonly capacity = 10_000) {}

  /**
   * A live socket event. Always new unless it restates (or predates) a state a REST
   * reconciliation already delivered; the socket's own seq handles its duplicates.
   */
  acceptLive(orderId: string, updatedAt: string, status: string): boolean {
    const t = Date.parse(updatedAt);
    const prev = this.last.get(orderId);
    if (prev?.fromRest && (prev.updatedAt > t || (prev.updatedAt === t && prev.status === status)))
      return false;
    this.record(orderId, { updatedAt: t, status, fromRest: false });
    return true;
  }

  /** An order read over REST during a resync: new only if its state was never delivered. */
  acceptRest(orderId: string, updatedAt: string, status: string): boolean {
    const t = Date.parse(updatedAt);
    const prev = this.last.get(orderId);
    if (prev && (prev.updatedAt > t || (prev.updatedAt === t && prev.status === status))) return false;
    this.record(orderId, { updatedAt: t, status, fromRest: true });
    return true;
  }

  private record(orderId: string, seen: Seen): void {
    this.last.delete(orderId);
    this.last.set(orderId, seen);
    if (this.last.size > this.capacity) {
      const oldest = this.last.keys().next().value;
      if (oldest !== undefined) this.last.delete(oldest);
    }
  }
}
