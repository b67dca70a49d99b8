import { InvalidArgumentError } from '../core/base-error.js';
import type { Logger } from '../core/logger.js';
import type { UnknownKey, UnknownKeyListener } from '../core/unknown-keys.js';
import { parseWith } from '../core/validation.js';
import type { AccountSummary, Order } from '../generated/models.js';
import { OrderStatus } from '../generated/validators.js';
import type { OrderPage, OrderQuery, StreamOptions, VenueStream } from '../stream/index.js';
import type { MirrorOptions, MirrorOrderFilter } from './api.js';
import type { ClientState } from './client-state.js';
import { checkMs } from './wait-checks.js';

// What the account mirror is given by the client (the resources build it: src/resources/account.ts)
// and the checks of its options and filters (made when called, before the mirror's code has
// loaded), so that the state layer never imports the resources.

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

/** What the mirror starts from, made when `account.mirror()` was called (mirror-handle.ts) before its code loaded. */
export interface MirrorStart {
  /** The stream to follow: the caller's, or the one opened for the mirror. */
  stream: VenueStream;
  /** Close `stream` with the mirror (it was opened for it). */
  ownsStream: boolean;
  /** Called once when the mirror ends, however it ends. */
  ended: () => void;
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

/** Checks a `mirror.orders()` filter, naming the field it cannot use. */
export function checkOrderFilter(filter: MirrorOrderFilter | undefined): void {
  if (filter === undefined) return;
  if (typeof filter !== 'object' || filter === null)
    throw new InvalidArgumentError('mirror.orders: filter must be an object');
  const statuses = filter.status === undefined ? [] : [filter.status].flat();
  for (const s of statuses)
    if (!parseWith(OrderStatus, s).ok)
      throw new InvalidArgumentError(
        `mirror.orders: filter.status must be an order status, got ${String(s)}`,
      );
  if (filter.orderType !== undefined && filter.orderType !== 'BURN' && filter.orderType !== 'MINT')
    throw new InvalidArgumentError(
      `mirror.orders: filter.orderType must be BURN or MINT, got ${String(filter.orderType)}`,
    );
  if (filter.auctionId !== undefined && !Number.isSafeInteger(filter.auctionId))
    throw new InvalidArgumentError(
      `mirror.orders: filter.auctionId must be an integer, got ${String(filter.auctionId)}`,
    );
  if (filter.open !== undefined && typeof filter.open !== 'boolean')
    throw new InvalidArgumentError(
      `mirror.orders: filter.open must be a boolean, got ${String(filter.open)}`,
    );
}
