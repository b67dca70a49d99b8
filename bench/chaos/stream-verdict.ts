/**
 * The stream chaos verdict: the order states the consumer was delivered, compared with the
 * simulator's truth (every distinct state of every order, in publication order). Kept apart from
 * the driver so that the mirror check (bench/chaos/mirror-check.ts) reads states the same way.
 */

export interface OrderLike {
  orderId: string;
  status: string;
  feeBps?: string | null;
  updatedAt: string;
  fill: { filledAmount: { amount: string } } | null;
  lineage?: { childOrderId: string | null };
}

/** One state of one order: what tells two states apart, then the seq that published it. */
export interface TruthState {
  fp: string;
  seq: number;
  updatedAt: number;
}

/** Per order, its distinct states in publication order. */
export type Truth = Map<string, TruthState[]>;

/** How often a state was delivered, whether a copy came from a REST resync, and how each came. */
export interface Delivery {
  count: number;
  rest: boolean;
  how: string[];
}

export function fingerprint(o: OrderLike): string {
  return [o.orderId, o.status, o.feeBps ?? 'market', o.updatedAt, o.fill?.filledAmount.amount ?? '-'].join(
    ' ',
  );
}

export function isOrderLike(data: unknown): data is OrderLike {
  const o = data as Partial<OrderLike> | null;
  return typeof o?.orderId === 'string' && typeof o.status === 'string' && typeof o.updatedAt === 'string';
}

/** Records one truth state, unless it restates the order's last one (a no-op change). */
export function addTruth(truth: Truth, order: OrderLike, seq: number): void {
  const fp = fingerprint(order);
  let states = truth.get(order.orderId);
  if (!states) {
    states = [];
    truth.set(order.orderId, states);
  }
  if (states.at(-1)?.fp !== fp) states.push({ fp, seq, updatedAt: Date.parse(order.updatedAt) });
}

export interface StreamVerdict {
  expectedStates: number;
  missing: number;
  missingFinal: number;
  collapsedByResync: number;
  duplicates: number;
  unexpected: number;
  outOfOrder: number;
  examples: string[];
  duplicateExamples: string[];
}

/**
 * A state never delivered is missing unless a later state of its order came from a REST resync
 * (collapsed: the protocol allows it and says so with `stream.resync`); a state delivered after a
 * later one of its order is out of order.
 */
export function judgeDeliveries(
  truth: Truth,
  delivered: Map<string, Delivery>,
  deliveryOrder: readonly { orderId: string; fp: string }[],
): StreamVerdict {
  let expectedStates = 0;
  let missing = 0;
  let missingFinal = 0;
  let collapsed = 0;
  const examples: string[] = [];
  const known = new Set<string>();
  for (const states of truth.values()) {
    expectedStates += states.length;
    let laterRest = false;
    for (let i = states.length - 1; i >= 0; i--) {
      const { fp } = states[i] as TruthState;
      known.add(fp);
      const got = delivered.get(fp);
      if (got) {
        if (got.rest) laterRest = true;
        continue;
      }
      if (laterRest) {
        collapsed++;
        continue;
      }
      missing++;
      if (i === states.length - 1) missingFinal++;
      if (examples.length < 5) examples.push(fp);
    }
  }
  let duplicates = 0;
  let unexpected = 0;
  const duplicateExamples: string[] = [];
  for (const [fp, { count, how }] of delivered) {
    duplicates += count - 1;
    if (count > 1 && duplicateExamples.length < 5) duplicateExamples.push(`${fp} (${how.join(', ')})`);
    if (!known.has(fp)) unexpected++;
  }
  return {
    expectedStates,
    missing,
    missingFinal,
    collapsedByResync: collapsed,
    duplicates,
    unexpected,
    outOfOrder: countOutOfOrder(truth, deliveryOrder),
    examples,
    duplicateExamples,
  };
}

/** States delivered after a later state of the same order: the consumer went back in time. */
export function countOutOfOrder(
  truth: Truth,
  deliveryOrder: readonly { orderId: string; fp: string }[],
): number {
  const index = new Map<string, number>();
  for (const states of truth.values()) {
    for (const [i, st] of states.entries()) index.set(st.fp, i);
  }
  const newest = new Map<string, number>();
  let outOfOrder = 0;
  for (const { orderId, fp } of deliveryOrder) {
    const i = index.get(fp);
    if (i === undefined) continue;
    const top = newest.get(orderId) ?? -1;
    if (i < top) outOfOrder++;
    else newest.set(orderId, i);
  }
  return outOfOrder;
}
