import type { Order } from '../generated/models.js';

// How `orders.waitForOutcome` hands the mirror an order it read over REST, so that the wait answers
// only what the mirror shows (a final order after the summary that includes it) and the mirror stays
// the one writer of its view. Keyed by a symbol: plumbing between two modules of this package, kept
// off the public `AccountMirror` type. A mirror without it (a test double) is answered from REST.

export const observeOrder: unique symbol = Symbol('match-venue.mirror.observeOrder');

export interface OrderObserver {
  [observeOrder](order: Order): void;
}

export function canObserve(mirror: object): mirror is OrderObserver {
  return typeof (mirror as Partial<OrderObserver>)[observeOrder] === 'function';
}
