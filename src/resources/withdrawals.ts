import { operations } from '../contract/operations.js';
import { APIPromise } from '../core/api-promise.js';
import { InvalidArgumentError, type OutcomeUnknownError } from '../core/error.js';
import type { RequestOptions } from '../core/request.js';
import type { ClientCore } from '../core/api-client.js';
import { APIResource, newIdempotencyKey } from '../core/resource.js';
import type { CreateWithdrawalRequest, Withdrawal } from '../generated/models.js';
import type { ClientState } from '../state/index.js';

/** Body of a withdrawal; `idempotencyKey` is generated when omitted. */
export type CreateWithdrawalParams = Omit<CreateWithdrawalRequest, 'idempotencyKey'> & {
  /** UUID v4 naming this withdrawal; sending it again returns the same withdrawal. Default: a new one. */
  idempotencyKey?: string;
};

/** `venue.withdrawals`: USD out of the venue to a fiat account. */
export class Withdrawals extends APIResource {
  readonly #state: ClientState;

  /**
   * Made by MatchVenue.
   * @internal
   */
  constructor(client: ClientCore, state: ClientState) {
    super(client);
    this.#state = state;
  }

  /** Tells the client's mirrors about a withdrawal a create answered (the venue has no GET for it). */
  #observe(promise: APIPromise<Withdrawal>): APIPromise<Withdrawal> {
    promise.then(
      (withdrawal) => this.#state.withdrawalCreated(withdrawal),
      () => undefined,
    );
    return promise;
  }
  /**
   * Wires venue-only stablecoin balance out as USD. The idempotency key is made once per call and
   * reused on every retry, so a retried call never creates a second withdrawal. Bad input rejects
   * with ValidationError (kind `MV_VALIDATION`) before sending; a balance too small is a
   * BadRequestError (code 138001); a failure after the request may have arrived is an
   * OutcomeUnknownError (kind `MV_OUTCOME_UNKNOWN`): settle it with {@link Withdrawals.resolveUnknown}.
   */
  create(params: CreateWithdrawalParams, options?: RequestOptions): APIPromise<Withdrawal> {
    const idempotencyKey = params?.idempotencyKey ?? newIdempotencyKey();
    const body = { ...params, idempotencyKey };
    const call = {
      context: 'withdrawals.create params',
      body,
      idempotencyKey,
      outcome: 'createWithdrawal',
    } as const;
    return this.#observe(this.client.endpoint(operations.createWithdrawal, call, options));
  }

  /**
   * Settles an OutcomeUnknownError of `create`: sends the same request with the same key again,
   * which the venue answers with the original withdrawal if it exists, or creates it once if not.
   * An error of another call rejects with InvalidArgumentError (kind `MV_INVALID_ARGUMENT`).
   */
  resolveUnknown(error: OutcomeUnknownError, options?: RequestOptions): APIPromise<Withdrawal> {
    if (error.operation !== 'createWithdrawal') {
      return APIPromise.rejected(
        new InvalidArgumentError(`resolveUnknown expects a createWithdrawal outcome, got ${error.operation}`),
      );
    }
    const call = {
      context: 'withdrawals.resolveUnknown request',
      body: error.request as CreateWithdrawalRequest,
      idempotencyKey: error.idempotencyKey,
      outcome: 'createWithdrawal',
    } as const;
    return this.#observe(this.client.endpoint(operations.createWithdrawal, call, options));
  }
}
