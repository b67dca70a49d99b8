/**
 * The compact form of a snapshot's engine state (document version 2, what `sim.snapshot()` and
 * `POST /_sim/snapshot` write). Orders are most of a snapshot, and in version 1 each carried its 19
 * key names, three account ids spelled out and two more copies of its id (its entity's list, its
 * auction's list): a busy market's 12 auctions made 4.8 MB, 120 made 56 MB, and past about 1,100
 * the text no longer fit in one JavaScript string (issue 33). Version 2 writes the orders as rows
 * under one list of columns, the account ids as indexes into one table, and leaves out the lists
 * that follow from the orders (written only where they do not). Restore expands it back into the
 * version 1 shape before any check, so both versions are read by the same rules.
 */
import type { EngineStateDocument } from '../engine/snapshot.js';

/** The order fields, in the version 1 document's key order. */
export const ORDER_COLUMNS = [
  'orderId',
  'entityId',
  'auctionId',
  'orderType',
  'amountCents',
  'feeBps',
  'limitCentiBps',
  'postFillAction',
  'status',
  'createdAt',
  'updatedAt',
  'sourceWalletId',
  'fiatAccountId',
  'parentOrderId',
  'childOrderId',
  'filledCents',
  'feeCents',
  'placedLimitCentiBps',
  'clearedIn',
] as const;

/** Columns whose values are indexes into the `ids` table (null stays null). */
const TABLED = new Set<string>(['entityId', 'sourceWalletId', 'fiatAccountId']);

/** A row or table that cannot be expanded: the path names it, the message the rule. */
export class CompactFormError extends RangeError {
  constructor(
    readonly path: string,
    rule: string,
  ) {
    super(`${path} ${rule}`);
  }
}

type Row = unknown[];
type Auction = EngineStateDocument['auctions'][number];

/** What each entity's and auction's order list would be if derived from `orders` (in its order). */
function derivedLists(
  orders: readonly { orderId: string; entityId: string; auctionId: number }[],
  entityIds: string[],
) {
  const byEntity = new Map<string, string[]>(entityIds.map((id) => [id, []]));
  const byAuction = new Map<number, string[]>();
  for (const o of orders) {
    // An order of an unknown entity is left to the order's own check, which names it.
    byEntity.get(o.entityId)?.push(o.orderId);
    const inAuction = byAuction.get(o.auctionId);
    if (inAuction === undefined) byAuction.set(o.auctionId, [o.orderId]);
    else inAuction.push(o.orderId);
  }
  return { byEntity, byAuction };
}

const sameList = (a: readonly string[], b: readonly string[] | undefined) =>
  b !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);

/** The version 2 form of an exported engine state (its arrays may be shared with `s`). */
export function compactState(s: EngineStateDocument): Record<string, unknown> {
  const ids: string[] = [];
  const index = new Map<string, number>();
  const tabled = (id: string | null) => {
    if (id === null) return null;
    let i = index.get(id);
    if (i === undefined) {
      i = ids.push(id) - 1;
      index.set(id, i);
    }
    return i;
  };
  const rows = new Array<Row>(s.orders.length);
  for (let i = 0; i < s.orders.length; i++) {
    const o = s.orders[i] as EngineStateDocument['orders'][number];
    // biome-ignore format: one row, in ORDER_COLUMNS' order
    rows[i] = [o.orderId, tabled(o.entityId), o.auctionId, o.orderType, o.amountCents, o.feeBps, o.limitCentiBps,
      o.postFillAction, o.status, o.createdAt, o.updatedAt, tabled(o.sourceWalletId), tabled(o.fiatAccountId),
      o.parentOrderId, o.childOrderId, o.filledCents, o.feeCents, o.placedLimitCentiBps, o.clearedIn];
  }
  const derived = derivedLists(
    s.orders,
    s.entities.map((e) => e.id),
  );
  const entityListsDerive =
    Object.keys(s.ordersByEntity).length === derived.byEntity.size &&
    [...derived.byEntity].every(([id, list]) => sameList(list, s.ordersByEntity[id]));
  const auctions = s.auctions.map((a: Auction) => {
    if (!sameList(derived.byAuction.get(a.auctionId) ?? [], a.orders)) return a;
    const { orders: _derived, ...rest } = a;
    return rest;
  });
  const { ordersByEntity, orders: _rows, auctions: _auctions, ...rest } = s;
  return {
    ...rest,
    orders: { columns: ORDER_COLUMNS, ids, rows },
    ...(entityListsDerive ? {} : { ordersByEntity }),
    auctions,
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A version 2 engine state in the version 1 shape, for the checks that follow; refuses a table or
 * row it cannot read with a CompactFormError (path `engine.state.orders...`).
 */
export function expandState(state: unknown): unknown {
  if (!isRecord(state)) return state;
  const P = 'engine.state.orders';
  const c = state.orders;
  if (!isRecord(c) || !Array.isArray(c.columns) || !Array.isArray(c.ids) || !Array.isArray(c.rows))
    throw new CompactFormError(P, 'must be {columns, ids, rows} in a version 2 document');
  if (c.columns.length !== ORDER_COLUMNS.length || c.columns.some((name, i) => name !== ORDER_COLUMNS[i]))
    throw new CompactFormError(`${P}.columns`, `must be ${ORDER_COLUMNS.join(', ')}`);
  const ids = c.ids as unknown[];
  if (!ids.every((id) => typeof id === 'string')) throw new CompactFormError(`${P}.ids`, 'must hold strings');
  const orders = c.rows.map((row: unknown, r) => {
    if (!Array.isArray(row) || row.length !== ORDER_COLUMNS.length)
      throw new CompactFormError(`${P}.rows.${r}`, `must be an array of ${ORDER_COLUMNS.length} values`);
    const order: Record<string, unknown> = {};
    ORDER_COLUMNS.forEach((name, i) => {
      const cell = row[i];
      if (!TABLED.has(name) || cell === null) order[name] = cell;
      else if (Number.isInteger(cell) && (cell as number) >= 0 && (cell as number) < ids.length)
        order[name] = ids[cell as number];
      else throw new CompactFormError(`${P}.rows.${r}.${i}`, `(${name}) must be an index into ${P}.ids`);
    });
    return order;
  });
  const entityIds = Array.isArray(state.entities)
    ? state.entities.flatMap((e) => (isRecord(e) && typeof e.id === 'string' ? [e.id] : []))
    : [];
  const readable = orders.every(
    (o) => typeof o.orderId === 'string' && typeof o.entityId === 'string' && typeof o.auctionId === 'number',
  );
  const derived = derivedLists(
    readable ? (orders as { orderId: string; entityId: string; auctionId: number }[]) : [],
    entityIds,
  );
  const auctions = Array.isArray(state.auctions)
    ? state.auctions.map((a) =>
        isRecord(a) && !Object.hasOwn(a, 'orders')
          ? { ...a, orders: derived.byAuction.get(a.auctionId as number) ?? [] }
          : a,
      )
    : state.auctions;
  return {
    ...state,
    orders,
    ordersByEntity: Object.hasOwn(state, 'ordersByEntity')
      ? state.ordersByEntity
      : Object.fromEntries(derived.byEntity),
    auctions,
  };
}
