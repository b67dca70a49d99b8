import type { ClientCore } from './api-client.js';

/** Base of every resource: holds the client whose `request` pipeline its methods call. */
export abstract class APIResource {
  protected readonly client: ClientCore;
  /**
   * Made by MatchVenue, one per resource.
   * @internal
   */
  constructor(client: ClientCore) {
    this.client = client;
  }
}
