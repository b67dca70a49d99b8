import { STREAM_BACKOFF, sleep } from '../contract/retry-policy.js';
import { APIError } from '../core/error.js';
import type { Logger } from '../core/logger.js';
import type { Order } from '../generated/models.js';
import type { AccountEvent, StreamSubscription, VenueStream } from '../stream/index.js';
import type { AccountMirror, WaitForOutcomeOptions } from './api.js';
import { canObserve, observeOrder } from './observe-order.js';
import { WaitControl } from './wait-control.js';

// `venue.orders.waitForOutcome`: the order in a final state. It listens where the client already
// listens (a stream or a mirror) and reads the order over REST as well, with backoff alone and at
// `pollIntervalMs` beside a stream, so an event lost anywhere delays the answer, never loses it.

const FINAL = new Set(['filled', 'partial_fill', 'unfilled', 'cancelled', 'failed']);

/** The statuses an order ends in. */
export function isFinalStatus(status: string): boolean {
  return FINAL.has(status);
}

/** A final `roll` order with a remainder whose child has not shown yet (it may, a moment later). */
export function awaitsChild(order: Order): boolean {
  return (
    order.postFillAction === 'roll' &&
    (order.status === 'partial_fill' || order.status === 'unfilled') &&
    !order.lineage?.childOrderId
  );
}

/** Final, and nothing of it will change any more. */
export function isSettledForGood(order: Order): boolean {
  return isFinalStatus(order.status) && !awaitsChild(order);
}

/** What the wait needs from the client. */
export interface OutcomeHost {
  /** GET /v1/match/orders/{id}. */
  retrieveOrder(orderId: string, signal: AbortSignal): Promise<Order>;
  /** The client's open mirror or stream, if any. */
  shared(): AccountMirror | VenueStream | undefined;
  logger: Logger;
}

const DEFAULT_POLL_MS = 5_000;
const DEFAULT_CHILD_GRACE_MS = 2_000;
const FIRST_POLL_MS = 250;

function isMirror(source: AccountMirror | VenueStream): source is AccountMirror {
  return typeof (source as AccountMirror).changes === 'function';
}

/** Resolves with the order once it is final (see WaitForOutcomeOptions for the rules). */
export function waitForOutcome(
  host: OutcomeHost,
  orderId: string,
  options: WaitForOutcomeOptions = {},
): Promise<Order> {
  const pollMs = options.pollIntervalMs ?? DEFAULT_POLL_MS;
  const graceMs = options.childGraceMs ?? DEFAULT_CHILD_GRACE_MS;
  // The first final state seen, and when: a roll remainder's child may follow it.
  let finalSeen: { order: Order; at: number } | undefined;
  const wait = new WaitControl({
    orderId,
    timeout: options.timeout,
    signal: options.signal,
    onTimeout: () => finalSeen?.order,
  });
  const consider = (order: Order): void => {
    if (wait.done || order.orderId !== orderId) return;
    wait.last = order;
    if (!isFinalStatus(order.status)) return;
    if (!awaitsChild(order) || graceMs === 0) {
      wait.resolve(order);
      return;
    }
    finalSeen = { order, at: finalSeen?.at ?? Date.now() };
    if (Date.now() - finalSeen.at >= graceMs) wait.resolve(order);
  };
  if (graceMs > 0) {
    // Ends the grace on time even if no read or event comes meanwhile.
    const graceCheck = setInterval(
      () => {
        if (finalSeen && Date.now() - finalSeen.at >= graceMs) wait.resolve(wait.last ?? finalSeen.order);
      },
      Math.min(graceMs, 100),
    );
    wait.cleanup(() => clearInterval(graceCheck));
  }

  const source = options.stream ?? host.shared();
  // Given a mirror, the wait answers what the mirror shows: a REST read goes into the mirror, and
  // the outcome comes out of it (after the summary that includes the settlement).
  let read = consider;
  if (source && isMirror(source)) {
    listenToMirror(source, orderId, wait, consider);
    if (canObserve(source))
      read = (order) => {
        source[observeOrder](order);
        const shown = source.order(orderId);
        if (shown) consider(shown);
      };
  } else if (source && source.state !== 'closed') listenToStream(source.account(), wait, consider);
  void poll(host, orderId, wait, read, {
    pollMs,
    listening: source !== undefined,
    graceMs,
    inGrace: () => finalSeen !== undefined,
  });
  return wait.promise;
}

function listenToMirror(
  mirror: AccountMirror,
  orderId: string,
  wait: WaitControl,
  consider: (order: Order) => void,
): void {
  const changes = mirror.changes();
  wait.cleanup(() => void changes.return?.());
  const held = mirror.order(orderId);
  if (held) consider(held);
  void (async () => {
    for await (const change of changes) {
      if (change.kind === 'order') consider(change.order);
      if (wait.done) return;
    }
  })().catch(() => undefined);
}

function listenToStream(
  account: StreamSubscription<AccountEvent>,
  wait: WaitControl,
  consider: (order: Order) => void,
): void {
  wait.cleanup(() => void account.return?.());
  void (async () => {
    for await (const ev of account) {
      if (ev.event === 'order.accepted' || ev.event === 'order.updated') consider(ev.data as Order);
      if (wait.done) return;
    }
  })().catch(() => undefined);
}

interface PollPlan {
  pollMs: number;
  /** A stream or mirror is listening too: REST is the safety net, at the full interval. */
  listening: boolean;
  graceMs: number;
  inGrace: () => boolean;
}

/**
 * Reads the order until the wait ends: with backoff from 250 ms up to `pollMs` alone, every
 * `pollMs` beside a listener, and quickly while a roll's child is awaited. A 404 or another
 * refusal ends the wait with that error; connection failures and 5xx are retried.
 */
async function poll(
  host: OutcomeHost,
  orderId: string,
  wait: WaitControl,
  consider: (order: Order) => void,
  plan: PollPlan,
): Promise<void> {
  const signal = wait.ended.signal;
  for (let attempt = 0; !wait.done; attempt++) {
    try {
      consider(await host.retrieveOrder(orderId, signal));
    } catch (error) {
      if (wait.done) return;
      if (error instanceof APIError && !error.retryable) return wait.reject(error);
      host.logger.warn(`orders.waitForOutcome: reading order ${orderId} failed, retrying`, {
        error: error instanceof Error ? error.message : String(error),
      });
    }
    if (wait.done) return;
    const backoff = Math.min(plan.pollMs, FIRST_POLL_MS * (STREAM_BACKOFF.factor ?? 2) ** attempt);
    const delay = plan.inGrace()
      ? Math.min(FIRST_POLL_MS, plan.graceMs)
      : plan.listening
        ? plan.pollMs
        : backoff;
    await sleep(delay, signal).catch(() => undefined);
  }
}
