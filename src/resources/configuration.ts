import type { ClientCore } from '../core/api-client.js';
import { endpoints } from '../generated/endpoints.js';
import { APIPromise } from '../core/api-promise.js';
import { AuthenticationError } from '../core/error.js';
import type { RequestOptions } from '../core/request.js';
import type { Configuration } from '../generated/models.js';

/** `venue.configuration` (`GET /v1/configuration`): the platform configuration, also the cheapest way to test a key. */
export class ConfigurationResource {
  /** The request pipeline this resource calls (held, so it is not part of the resource's API). */
  readonly #client: ClientCore;

  /**
   * Made by MatchVenue, one per client.
   * @internal
   */
  constructor(client: ClientCore) {
    this.#client = client;
  }
  /** The entity's platform configuration (`payments.masterWalletId`). */
  retrieve(options?: RequestOptions): APIPromise<Configuration> {
    return this.#client.endpoint(endpoints.getConfiguration, {}, options);
  }

  /**
   * Resolves true when the key is accepted and false when the platform answers 401 (a malformed
   * credential, code 401, or an unknown key, code 156007); `.withResponse()` gives the response the
   * answer came from (the 401's status, headers and request id on false). Any other failure
   * (network, 403, 5xx) is thrown: it says nothing about the key.
   */
  verifyApiKey(options?: RequestOptions): APIPromise<boolean> {
    const work = APIPromise.settle(this.retrieve(options)).then(
      ({ raw }) => ({ data: true, raw }),
      (error: unknown) => {
        if (!(error instanceof AuthenticationError)) throw error;
        const { status, headers, requestId, body } = error;
        const bodyText = typeof body === 'string' ? body : JSON.stringify(body ?? null);
        return { data: false, raw: { status, headers, requestId, bodyText } };
      },
    );
    return APIPromise.from(work);
  }
}

// The API's data of this resource and what its calls take, reached as
// `ConfigurationResource.Configuration` (one namespace per resource, merged with the class: the main
// entry exports the resource, not each of its types).
export declare namespace ConfigurationResource {
  export type { Configuration };
}
