import type { Order } from '../generated/models.js';
import { MatchVenueError } from './base-error.js';

// The errors of the waits for an order (src/state/: `orders.waitForOutcome`, `mirror.waitFor`),
// re-exported by error.ts beside the others.

/**
 * A wait for an order (`orders.waitForOutcome`, `mirror.waitFor`) ran out of its `timeout` before
 * the order got where it was awaited. `lastSeen` is the last state read of the order (undefined if
 * none was read); the order itself is untouched: wait again, or act on `lastSeen`.
 */
export class WaitTimeoutError extends MatchVenueError {
  static override readonly kind = 'MV_WAIT_TIMEOUT';
  /** The class name. */
  override name = 'WaitTimeoutError';
  /** The order waited for. */
  readonly orderId: string;
  /** The `timeout` that ran out, in ms. */
  readonly timeoutMs: number;
  /** The last state of the order seen while waiting; undefined when none was. */
  readonly lastSeen: Order | undefined;
  /**
   * Made by the waits when their timeout runs out.
   * @internal
   */
  constructor(orderId: string, timeoutMs: number, lastSeen: Order | undefined) {
    const where = lastSeen ? `last seen ${lastSeen.status}` : 'never read';
    super(`Gave up waiting for order ${orderId} after ${timeoutMs}ms (${where}).`);
    this.orderId = orderId;
    this.timeoutMs = timeoutMs;
    this.lastSeen = lastSeen;
  }
}

/**
 * `mirror.waitFor` met the order in a final state its predicate does not accept: the order will not
 * change any more, so the wait ends instead of running into its timeout (or forever). `order` is
 * that final state.
 */
export class OrderFinalError extends MatchVenueError {
  static override readonly kind = 'MV_ORDER_FINAL';
  /** The class name. */
  override name = 'OrderFinalError';
  /** The order's final state, which the predicate refused. */
  readonly order: Order;
  /**
   * Made by `mirror.waitFor`.
   * @internal
   */
  constructor(order: Order) {
    super(`Order ${order.orderId} is final (${order.status}) and does not satisfy the predicate.`);
    this.order = order;
  }
}
