import type { RequestOptions } from '../core/api-client.js';
import type { APIPromise } from '../core/api-promise.js';
import { InvalidArgumentError, type OutcomeUnknownError } from '../core/error.js';
import { APIResource, newIdempotencyKey } from '../core/resource.js';
import { validate } from '../core/validation.js';
import { CreateWithdrawalRequest, Withdrawal } from '../generated/schemas.js';

/** Body of a withdrawal; `idempotencyKey` is generated when omitted. */
export type CreateWithdrawalParams = Omit<CreateWithdrawalRequest, 'idempotencyKey'> & {
  idempotencyKey?: string;
};

export class Withdrawals extends APIResource {
  /**
   * Wires venue-only stablecoin balance out as USD. The idempotency key is made once per call and
   * reused on every retry, so a retried call never creates a second withdrawal.
   */
  create(params: CreateWithdrawalParams, options?: RequestOptions): APIPromise<Withdrawal> {
    return this.client.call(() => {
      const idempotencyKey = params.idempotencyKey ?? newIdempotencyKey();
      const body = validate(
        CreateWithdrawalRequest,
        { ...params, idempotencyKey },
        'withdrawals.create params',
      );
      return {
        ...options,
        method: 'POST',
        path: '/v1/match/withdrawals',
        body,
        idempotencyKey,
        outcome: 'createWithdrawal',
        responseSchema: Withdrawal,
      };
    });
  }

  /**
   * Settles an OutcomeUnknownError of `create`: sends the same request with the same key again,
   * which the venue answers with the original withdrawal if it exists, or creates it once if not.
   */
  resolveUnknown(error: OutcomeUnknownError, options?: RequestOptions): APIPromise<Withdrawal> {
    return this.client.call(() => {
      if (error.operation !== 'createWithdrawal') {
        throw new InvalidArgumentError(
          `resolveUnknown expects a createWithdrawal outcome, got ${error.operation}`,
        );
      }
      return {
        ...options,
        method: 'POST',
        path: '/v1/match/withdrawals',
        body: validate(CreateWithdrawalRequest, error.request, 'withdrawals.resolveUnknown request'),
        idempotencyKey: error.idempotencyKey,
        outcome: 'createWithdrawal',
        responseSchema: Withdrawal,
      };
    });
  }
}
