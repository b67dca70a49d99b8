import type { RequestOptions } from '../core/api-client.js';
import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/resource.js';
import { WsTicket } from '../generated/schemas.js';

export class Stream extends APIResource {
  /** A short-lived, single-use WebSocket ticket. It is a secret: never log it. */
  ticket(options?: RequestOptions): APIPromise<WsTicket> {
    return this.client.call(() => ({
      ...options,
      method: 'POST',
      path: '/v1/match/ws/ticket',
      responseSchema: WsTicket,
    }));
  }
}
