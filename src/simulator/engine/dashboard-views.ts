/**
 * Cross-entity views the dashboard (`/_sim/ui`) reads through `GET /_sim/orders` and
 * `GET /_sim/auctions`: the same Order and Auction objects REST and the socket show, only listed
 * over every entity. Bounded by `limit`, newest first, so a large book costs a page, not the book.
 */

import { toWireAuction, toWireOrder } from './rest-shapes.js';
import type { EngineState } from './state.js';
import type { Order, OrderStatus, OrderType } from './types.js';

/** Filters of `GET /_sim/orders`. */
export interface AllOrdersQuery {
  /** Only this entity's orders. */
  entityId?: string;
  /** Only `BURN` or only `MINT`. */
  side?: OrderType;
  /** Only orders in this status. */
  status?: OrderStatus;
  /** At most this many, newest first. */
  limit: number;
}

/** Newest orders over every entity (or one), as REST shows them plus who placed them. */
export function allOrders(state: EngineState, q: AllOrdersQuery) {
  const picked: Order[] = [];
  const lists =
    q.entityId === undefined
      ? [...state.ordersByEntity.values()]
      : [state.ordersByEntity.get(q.entityId) ?? []];
  // Each entity's list is in creation order: walking it backwards stops after `limit` matches.
  for (const list of lists) {
    let taken = 0;
    for (let i = list.length - 1; i >= 0 && taken < q.limit; i--) {
      const o = list[i] as Order;
      if (q.side !== undefined && o.orderType !== q.side) continue;
      if (q.status !== undefined && o.status !== q.status) continue;
      picked.push(o);
      taken++;
    }
  }
  picked.sort((a, b) => b.createdAt - a.createdAt || (a.orderId < b.orderId ? 1 : -1));
  return picked.slice(0, q.limit).map((o) => ({
    ...toWireOrder(o),
    /** The entity that placed it. */
    entityId: o.entityId,
    /** That entity's name in the simulator (`burner`, `noise-0007`, ...). */
    entityName: state.entities.get(o.entityId)?.name ?? '',
  }));
}

/** The last `limit` auctions that cleared, newest first (the clearing-fee and volume history). */
export function clearedAuctions(state: EngineState, limit: number) {
  const out = [];
  const auctions = [...state.auctions.values()];
  for (let i = auctions.length - 1; i >= 0 && out.length < limit; i--) {
    const a = auctions[i];
    if (a && a.clearedAt !== null) out.push(toWireAuction(a));
  }
  return out;
}
