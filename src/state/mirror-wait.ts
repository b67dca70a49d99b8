import { InvalidArgumentError } from '../core/base-error.js';
import { APIUserAbortError, OrderFinalError } from '../core/error.js';
import type { Order } from '../generated/models.js';
import type { MirrorChange, MirrorWaitOptions } from './api.js';
import { isSettledForGood } from './order-outcome.js';
import { badOrderId, checkMs, checkSignal } from './wait-checks.js';
import { WaitControl } from './wait-control.js';

// `mirror.waitFor`: the mirror's view first, then every change of the order; an order the view
// does not hold (not seen yet, or retired after the retention window) is read over REST into the
// view, so the wait answers only what the mirror shows.

/** What the wait needs of the mirror. */
export interface MirrorWaitHost {
  ready: Promise<void>;
  order(orderId: string): Order | undefined;
  listen(listener: (change: MirrorChange) => void): () => void;
  /** Reads the order over REST into the view (a final one after the summary that includes it). */
  readIntoView(orderId: string, signal: AbortSignal): Promise<void>;
  /** Aborted when the mirror closes. */
  closing: AbortSignal;
}

export function waitForOrder(
  host: MirrorWaitHost,
  orderId: string,
  predicate: (order: Order) => boolean,
  options: MirrorWaitOptions = {},
): Promise<Order> {
  const bad = badOrderId(orderId, 'mirror.waitFor orderId');
  if (bad) return Promise.reject(bad);
  try {
    if (typeof predicate !== 'function')
      throw new InvalidArgumentError('mirror.waitFor: predicate must be a function');
    checkMs(options.timeout, 'timeout', 'mirror.waitFor');
    checkSignal(options.signal, 'mirror.waitFor');
  } catch (error) {
    return Promise.reject(error);
  }
  const wait = new WaitControl({ orderId, timeout: options.timeout, signal: options.signal });
  const check = (order: Order): void => {
    wait.last = order;
    let ok: boolean;
    try {
      ok = predicate(order);
    } catch (error) {
      wait.reject(error);
      return;
    }
    if (ok) wait.resolve(order);
    // Final, and nothing of it will change: the predicate can never hold, so the wait ends now.
    else if (isSettledForGood(order)) wait.reject(new OrderFinalError(order));
  };
  wait.cleanup(
    host.listen((change) => {
      if (change.kind === 'order' && change.order.orderId === orderId) check(change.order);
    }),
  );
  const onClose = () => wait.reject(new APIUserAbortError('The mirror was closed.'));
  if (host.closing.aborted) onClose();
  host.closing.addEventListener('abort', onClose);
  wait.cleanup(() => host.closing.removeEventListener('abort', onClose));
  host.ready
    .then(async () => {
      const held = host.order(orderId);
      if (held) return check(held);
      // Resolves once the view shows it; when the view had that state already (it came by the
      // stream meanwhile) no change follows, so check what the view shows.
      await host.readIntoView(orderId, wait.ended.signal);
      const shown = host.order(orderId);
      if (shown && !wait.done) check(shown);
    })
    .catch((error: unknown) => wait.reject(error));
  return wait.promise;
}
