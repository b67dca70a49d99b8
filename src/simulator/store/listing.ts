/**
 * `GET /v1/match/orders` over memory and the store together. The answer must be the one a
 * simulator that evicted nothing would give: one list sorted by (createdAt, orderId), the same
 * filters, the same page arithmetic. Evicted orders are mostly older than those in memory, but
 * not always (an order may stay pending past the window while later ones are evicted), so the two
 * are merged by rank rather than concatenated: each in-memory match's place in the merged list is
 * its index plus the number of stored matches before it (one indexed count), and the page then
 * takes the stored rows between as one contiguous range.
 */
import type { OrderArchive } from '../engine/order-archive.js';
import { toWireOrder, type WireOrder } from '../engine/rest-shapes.js';
import type { Order } from '../engine/types.js';
import type { OrderStore, StoredOrderFilter } from './order-store.js';

const before = (a: { createdAt: number; orderId: string }, b: { createdAt: number; orderId: string }) =>
  a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.orderId < b.orderId);

export function storeArchive(store: OrderStore): OrderArchive {
  return {
    find: (orderId) => store.get(orderId),
    activityBefore: (entityId, at) => store.activityBefore(entityId, at),
    list(entityId, q, memory) {
      const page = q.page ?? 1;
      const pageSize = q.pageSize ?? 20;
      const filter: StoredOrderFilter = {
        status: q.status,
        orderType: q.orderType,
        orderId: q.orderId,
        from: q.from,
        to: q.to,
      };
      const stored = store.count(entityId, filter);
      const total = stored + memory.length;
      const start = (page - 1) * pageSize;
      const end = Math.min(start + pageSize, total);
      if (stored === 0 || start >= total) {
        const orders = memory.slice(start, start + pageSize).map((o) => toWireOrder(o));
        return { orders, pagination: { page, pageSize, total } };
      }
      // Merged position of each in-memory match; those before the page shift the stored range.
      let memBefore = 0;
      const inPage: { order: Order; at: number }[] = [];
      for (let i = 0; i < memory.length; i++) {
        const o = memory[i] as Order;
        const at = i + store.countBefore(entityId, filter, o.createdAt, o.orderId);
        if (at < start) memBefore++;
        else if (at < end) inPage.push({ order: o, at });
        else break; // positions only grow along the sorted list
      }
      const rows = store.page(entityId, filter, start - memBefore, end - start - inPage.length);
      const orders: WireOrder[] = [];
      let m = 0;
      for (const row of rows) {
        while (m < inPage.length && before((inPage[m] as { order: Order }).order, row))
          orders.push(toWireOrder((inPage[m++] as { order: Order }).order));
        orders.push(row.wire);
      }
      while (m < inPage.length) orders.push(toWireOrder((inPage[m++] as { order: Order }).order));
      return { orders, pagination: { page, pageSize, total } };
    },
  };
}
