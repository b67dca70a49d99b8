/**
 * `GET /v1/match/orders` over memory and the store together. The answer must be the one a
 * simulator that evicted nothing would give: one list sorted by (createdAt, orderId), the same
 * filters, the same page arithmetic. Evicted orders are mostly older than those in memory, but
 * not always (an order may stay pending past the window while later ones are evicted), so the two
 * are merged by rank rather than concatenated: each in-memory match's place in the merged list is
 * its index plus the number of stored matches before it, and the page then takes the stored
 * matches between as one contiguous range.
 */
import type { OrderArchive } from '../engine/order-archive.js';
import { toWireOrder, type WireOrder } from '../engine/rest-shapes.js';
import type { Order } from '../engine/types.js';
import { fromRow, listedBefore, rowMatches, type StoredOrderFilter } from './order-row.js';
import type { OrderStore, StoredOrder } from './order-store.js';

/** How many of the sorted `stored` list before `o` (binary search). */
function storedBefore(stored: readonly StoredOrder[], o: Order): number {
  let lo = 0;
  let hi = stored.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (listedBefore(stored[mid] as StoredOrder, o)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The entity's stored matches: by id when the query names one, else the store's listing. */
function storedMatches(store: OrderStore, entityId: string, f: StoredOrderFilter, orderId?: string) {
  if (orderId === undefined) return store.matches(entityId, f);
  const found = store.get(orderId);
  if (!found || found.entityId !== entityId) return [];
  return rowMatches(found.row, f) ? [{ orderId, createdAt: found.row[1], row: found.row }] : [];
}

export function storeArchive(store: OrderStore): OrderArchive {
  return {
    find(orderId) {
      const found = store.get(orderId);
      return found && fromRow(found.entityId, found.row);
    },
    placed: (key) => store.placed(key),
    activityBefore: (entityId, at) => store.activityBefore(entityId, at),
    list(entityId, q, memory) {
      const page = q.page ?? 1;
      const pageSize = q.pageSize ?? 20;
      const filter: StoredOrderFilter = { status: q.status, orderType: q.orderType, from: q.from, to: q.to };
      const stored = storedMatches(store, entityId, filter, q.orderId);
      const total = stored.length + memory.length;
      const start = (page - 1) * pageSize;
      const end = Math.min(start + pageSize, total);
      // Merged position of each in-memory match; those before the page shift the stored range.
      let memBefore = 0;
      const inPage: Order[] = [];
      for (let i = 0; i < memory.length; i++) {
        const o = memory[i] as Order;
        const at = i + storedBefore(stored, o);
        if (at < start) memBefore++;
        else if (at < end) inPage.push(o);
        else break; // positions only grow along the sorted list
      }
      const from = Math.max(0, start - memBefore);
      const rows = stored.slice(from, from + Math.max(0, end - start - inPage.length));
      const orders: WireOrder[] = [];
      let m = 0;
      for (const row of rows) {
        while (m < inPage.length && listedBefore(inPage[m] as Order, row))
          orders.push(toWireOrder(inPage[m++] as Order));
        orders.push(toWireOrder(fromRow(entityId, row.row)));
      }
      while (m < inPage.length) orders.push(toWireOrder(inPage[m++] as Order));
      return { orders, pagination: { page, pageSize, total } };
    },
  };
}
