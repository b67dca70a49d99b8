import { InvalidArgumentError } from '../core/base-error.js';
import type { Logger } from '../core/logger.js';
import type { UnknownKey, UnknownKeyListener } from '../core/unknown-keys.js';
import type { AccountSummary, Order } from '../generated/models.js';
import type { OrderPage, OrderQuery, StreamOptions, VenueStream } from '../stream/index.js';
import type { MirrorOptions } from './api.js';
import type { ClientState } from './client-state.js';
import { checkMs } from './wait-control.js';

// What the account mirror is given by the client (the resources build it: src/resources/account.ts)
// and the check of its options, so that the state layer never imports the resources.

/** What the mirror needs from the client. */
export interface MirrorHost {
  connect(options?: StreamOptions): VenueStream;
  /** GET /v1/match/orders, every page, with the page's account seq when the venue sends it. */
  listOrders(query: OrderQuery): AsyncIterable<OrderPage>;
  retrieveAccount(signal: AbortSignal): Promise<AccountSummary>;
  retrieveOrder(orderId: string, signal: AbortSignal): Promise<Order>;
  unknownKeys: { list(): UnknownKey[]; onChange(listener: UnknownKeyListener): () => void };
  state: ClientState;
  logger: Logger;
}

/** Checks `account.mirror()` options, naming the one it cannot use. */
export function checkMirrorOptions(options: MirrorOptions): void {
  const context = 'account.mirror';
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError(`${context}: options must be an object`);
  checkMs(options.retentionMs, 'retentionMs', context);
  checkMs(options.settlementHoldMs, 'settlementHoldMs', context);
  const size = options.changesBufferSize;
  if (size !== undefined && !(Number.isSafeInteger(size) && size >= 1))
    throw new InvalidArgumentError(
      `${context}: changesBufferSize must be an integer >= 1, got ${String(size)}`,
    );
  const s = options.stream as Partial<VenueStream> | null | undefined;
  if (
    s !== undefined &&
    (typeof s?.account !== 'function' || typeof s.on !== 'function' || s.state === 'closed')
  )
    throw new InvalidArgumentError(`${context}: stream must be an open VenueStream`);
}
