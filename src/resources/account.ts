import { operations } from '../contract/operations.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request.js';
import { APIResource } from '../core/resource.js';
import type { AccountSummary } from '../generated/models.js';

/** `venue.account`: the caller's venue account. */
export class Account extends APIResource {
  /**
   * Best-effort balance, exposure and activity summary of the caller's venue account. Rejects with
   * NotFoundError (code 138003) when the entity has no venue account.
   */
  retrieve(options?: RequestOptions): APIPromise<AccountSummary> {
    return this.client.endpoint(operations.getAccount, {}, options);
  }
}
