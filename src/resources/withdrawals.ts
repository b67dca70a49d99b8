import { endpoints } from '../generated/endpoints.js';
import type { ClientCore } from '../core/api-client.js';
import type { APIPromise } from '../core/api-promise.js';
import { APIError, OutcomeUnknownError } from '../core/error.js';
import type { RequestOptions } from '../core/request.js';
import { type Absence, outcomeOf, type ResolveOptions, resolveUnknownKey } from '../core/resolve-unknown.js';
import type { CreateWithdrawalRequest, Withdrawal, WithdrawalAmount } from '../generated/models.js';
import type { ClientState } from '../state/index.js';

// An interface over the wire body, which stays inside, so the API reference lists its fields here.
/** Body of a withdrawal; `idempotencyKey` is generated when omitted. */
export interface CreateWithdrawalParams extends Omit<CreateWithdrawalRequest, 'idempotencyKey'> {
  /** UUID v4 naming this withdrawal; sending it again returns the same withdrawal. Default: a new one. */
  idempotencyKey?: string;
}

/** What {@link Withdrawals.resolveUnknown} found: the withdrawal, or an absence (final or for now). */
export type WithdrawalResolution =
  | {
      /** The key has its withdrawal. */
      status: 'found';
      /** The withdrawal of the uncertain call's key. */
      withdrawal: Withdrawal;
    }
  | Absence;

/** A 4xx that refuses the request itself (not 408 or 429, which ask for another try; not the key's 409). */
function isRefusal(err: unknown): boolean {
  return (
    err instanceof APIError && err.status >= 400 && err.status < 500 && ![408, 409, 429].includes(err.status)
  );
}

/** `venue.withdrawals`: USD out of the venue to a fiat account. */
export class Withdrawals {
  /** The request pipeline this resource calls (held, so it is not part of the resource's API). */
  readonly #client: ClientCore;
  readonly #state: ClientState;

  /**
   * Made by MatchVenue.
   * @internal
   */
  constructor(client: ClientCore, state: ClientState) {
    this.#client = client;
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
    const call = { context: 'withdrawals.create params', body: params };
    return this.#observe(this.#client.endpoint(endpoints.createWithdrawal, call, options));
  }

  /**
   * Settles an OutcomeUnknownError of `create`, with the same three answers as
   * `orders.resolveUnknown`: `{ status: 'found', withdrawal }`, `{ status: 'absent', final: true }`
   * once no attempt can land any more, or `{ status: 'absent', final: false, settlesAt }` while one
   * still can; `{ wait: true }` waits for a final answer. The API has no read of a withdrawal, so
   * the look is the same request with the same key: the venue answers it with the withdrawal the
   * key made, or makes it now (a key never makes two). A refusal of that request is an absence,
   * final only once the settle window has passed. An error of another call rejects with
   * InvalidArgumentError (kind `MV_INVALID_ARGUMENT`).
   */
  async resolveUnknown(error: OutcomeUnknownError, options?: ResolveOptions): Promise<WithdrawalResolution> {
    const outcome = outcomeOf(error, 'createWithdrawal', 'withdrawals.resolveUnknown');
    const request = outcome.request as CreateWithdrawalRequest;
    const look = async () => {
      try {
        const call = { context: 'withdrawals.resolveUnknown request', body: request };
        return await this.#client.endpoint(endpoints.createWithdrawal, call, options);
      } catch (err) {
        // A refusal is an absence (definite or not, the window decides); the key's own 409 and
        // every failure to get an answer are not.
        if (isRefusal(err)) return undefined;
        if (err instanceof OutcomeUnknownError && isRefusal(err.cause)) return undefined;
        throw err;
      }
    };
    const target = {
      key: outcome.idempotencyKey,
      operation: outcome.operation,
      settlesAt: outcome.settlesAt,
      request,
    };
    const answer = await resolveUnknownKey(this.#client, target, look, options);
    if (answer.status !== 'found') return answer;
    this.#state.withdrawalCreated(answer.value);
    return { status: 'found', withdrawal: answer.value };
  }
}

// The API's data of this resource and what its calls take, reached as `Withdrawals.Withdrawal`,
// `Withdrawals.CreateWithdrawalParams`, ... (one namespace per resource, merged with the class: the
// main entry exports the resource, not each of its types).
export declare namespace Withdrawals {
  export type { CreateWithdrawalParams, Withdrawal, WithdrawalAmount, WithdrawalResolution };
}
