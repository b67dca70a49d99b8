import type { EngineContext } from './state.js';
import type { Auction, Order, SimulatorAccountEvent } from './types.js';
import { type OrderMoment, toWireAuction, toWireOrder, type WireOrder } from './wire.js';

/**
 * Events are built only when someone reads them (`ctx.wants`): with no listener, a 1,000,000-order
 * clear would otherwise build and drop 2,000,000 wire orders.
 */
export function emitMarket(ctx: EngineContext, event: string, auction: Auction): void {
  if (ctx.wants()) ctx.emit({ channel: 'market', event, data: toWireAuction(auction) });
}

/** `order.accepted` / `order.updated`: data is the Order as REST shows it at this moment. */
export function emitOrder(ctx: EngineContext, event: string, order: Order): void {
  if (ctx.wants(order.entityId)) ctx.emit(orderEvent(event, order));
}

/**
 * The event keeps only the fields that will change (status, times, lineage, fee, fill) and builds
 * the wire Order on the first read of `data`, once: a consumer that only keeps the last events
 * (the WebSocket replay buffer) pays for those alone. `data` is an own enumerable property, so the
 * event still spreads, compares and serialises like a plain object.
 */
function orderEvent(event: string, order: Order): SimulatorAccountEvent {
  const moment: OrderMoment = {
    status: order.status,
    updatedAt: order.updatedAt,
    childOrderId: order.childOrderId,
    feeBps: order.feeBps,
    clearedIn: order.clearedIn,
  };
  let data: WireOrder | undefined;
  return {
    channel: 'account',
    entityId: order.entityId,
    event,
    get data(): WireOrder {
      data ??= toWireOrder(order, moment);
      return data;
    },
  };
}
