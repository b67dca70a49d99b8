import type { RequestOptions } from '../core/api-client.js';
import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/resource.js';
import { AccountSummary } from '../generated/schemas.js';

export class Account extends APIResource {
  /** Best-effort balance, exposure and activity summary of the caller's venue account. */
  retrieve(options?: RequestOptions): APIPromise<AccountSummary> {
    return this.client.call(() => ({
      ...options,
      method: 'GET',
      path: '/v1/match/account',
      responseSchema: AccountSummary,
    }));
  }
}
