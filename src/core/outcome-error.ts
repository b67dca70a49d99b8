import { orderIdFor } from '../contract/ids.js';
import type { OperationId } from '../generated/endpoints.js';
import { MatchVenueError } from './base-error.js';

// The error of a call whose outcome is unknown (core/attempt.ts makes it), re-exported by error.ts.

/**
 * The operations whose failure can leave it unknown whether they took effect: those that create
 * something (every keyed call, the subscription creates) and those the endpoint table marks not
 * safe to re-send. The names are the endpoint table's operationIds.
 */
export type UnknownOutcomeOperation = OperationId;

/**
 * A call that changes something failed after at least one attempt may have reached the server, so
 * it may have taken effect; no answer since was about its key. For a keyed call (`orders.place`,
 * `withdrawals.create`) settle it with `resolveUnknown(err)`; calling again with the same
 * `idempotencyKey` never creates a second one. An operation not safe to re-send (the endpoint
 * table's `idempotent: false`, e.g. a subscription create) was sent once and never again.
 */
export class OutcomeUnknownError extends MatchVenueError {
  static override readonly kind = 'MV_OUTCOME_UNKNOWN';
  /** The class name. */
  override name = 'OutcomeUnknownError';
  /** Which operation of the endpoint table it was. */
  readonly operation: UnknownOutcomeOperation;
  /** The key the request carried (keyed calls only): call again with it, or look the object up by it. */
  readonly idempotencyKey: string | undefined;
  /** For placed orders the orderId equals the idempotency key. */
  readonly orderId: string | undefined;
  /** Number of attempts this call made. */
  override readonly attempts: number;
  /** The request body that was sent (no credentials), so the same request can be replayed. */
  readonly request: unknown;
  /**
   * When an absence becomes final: the end of the last attempt that may have reached the server,
   * plus the client's settle window (`settleWindowMs`). Until then an attempt can still land.
   */
  readonly settlesAt: Date;
  /**
   * Made by the client when a call's outcome cannot be known.
   * @internal
   */
  constructor(init: {
    operation: UnknownOutcomeOperation;
    idempotencyKey: string | undefined;
    attempts: number;
    request: unknown;
    settlesAt: number;
    cause: unknown;
  }) {
    const last = init.cause instanceof Error ? init.cause.message : String(init.cause);
    const key = init.idempotencyKey ? ` (idempotencyKey ${init.idempotencyKey})` : '';
    super(
      `Outcome unknown for ${init.operation}${key} after ${init.attempts} attempt(s); ` +
        `the request may have reached the server. Last error: ${last}`,
      { cause: init.cause },
    );
    this.operation = init.operation;
    this.idempotencyKey = init.idempotencyKey;
    this.orderId =
      init.operation === 'placeOrder' && init.idempotencyKey ? orderIdFor(init.idempotencyKey) : undefined;
    this.attempts = init.attempts;
    this.request = init.request;
    this.settlesAt = new Date(init.settlesAt);
  }
}
