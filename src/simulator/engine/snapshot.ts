/**
 * The engine's state as plain JSON and back (`POST /_sim/snapshot`, `/_sim/restore`). The live
 * state shares objects (an Order sits in `orders`, its entity's list, its auction and maybe
 * `fallbacks`); the document names each by id once, and the import links them again, so a restored
 * engine mutates one object per order exactly as the original did.
 */
import { OrderIndex } from './order-index.js';
import { orderRecord } from './records.js';
import type { ActivityLog, EngineState } from './state.js';
import type {
  Auction,
  Entity,
  FiatAccount,
  Ledger,
  Order,
  SideCounts,
  Wallet,
  Wire,
  Withdrawal,
} from './types.js';

/** A time that may be Infinity (a settlement left for `settle()`): JSON has no Infinity. */
export type SnapshotTime = number | 'Infinity';

/** An order, its auction by id. */
export type SnapshotOrder = Omit<Order, 'clearedIn'> & { clearedIn: number | null };

/** An auction, its orders by id, its maps as records. */
export type SnapshotAuction = Omit<
  Auction,
  'orders' | 'pending' | 'placed' | 'locksAt' | 'clearsAt' | 'settleAt'
> & {
  locksAt: SnapshotTime;
  clearsAt: SnapshotTime;
  settleAt: SnapshotTime | null;
  orders: string[];
  pending: Record<string, SideCounts>;
  placed: Record<string, number>;
};

/** The engine state as JSON. */
export interface EngineStateDocument {
  entities: Entity[];
  wallets: Wallet[];
  fiatAccounts: FiatAccount[];
  /** Every order, in creation order. */
  orders: SnapshotOrder[];
  ordersByEntity: Record<string, string[]>;
  auctions: SnapshotAuction[];
  currentAuctionId: number;
  settlingAuctionId: number | null;
  lastClearedAuctionId: number | null;
  withdrawals: Withdrawal[];
  activeWithdrawals: string[];
  fallbacks: string[];
  wires: Wire[];
  house: Ledger;
  issuer: Ledger;
  initialTotals: EngineState['initialTotals'];
  seededLedgers: { house: Ledger; issuer: Ledger };
  exposure: Record<string, SideCounts>;
  activity: Record<string, ActivityLog>;
}

const toTime = (t: number): SnapshotTime => (t === Number.POSITIVE_INFINITY ? 'Infinity' : t);
const fromTime = (t: SnapshotTime): number => (t === 'Infinity' ? Number.POSITIVE_INFINITY : t);
// Copies, so that the document and the live state never share an object.
const deepCopy = <T>(value: T): T => structuredClone(value);

// The store writes this document every checkpoint, and with a busy market it holds hundreds of
// thousands of orders: the builders below are plain loops filling one object literal per order or
// auction (one hidden class, no iterator entries, no rest/spread copies, which took ~4 µs an order
// and most of the checkpoint's garbage). Their key order is the document's JSON text, which must
// not change: an order's is orderRecord's (records.ts) with `clearedIn` moved last, as the
// `{ clearedIn, ...o }` spread this replaces wrote it; an auction's is newAuction's (state.ts). Every
// live order and auction has those shapes, the imported ones included (importEngineState builds
// them with the same literals).

/** An order as the document holds it. */
function orderDocument(o: Order): SnapshotOrder {
  return {
    orderId: o.orderId,
    entityId: o.entityId,
    auctionId: o.auctionId,
    orderType: o.orderType,
    amountCents: o.amountCents,
    feeBps: o.feeBps,
    limitCentiBps: o.limitCentiBps,
    postFillAction: o.postFillAction,
    status: o.status,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
    sourceWalletId: o.sourceWalletId,
    fiatAccountId: o.fiatAccountId,
    parentOrderId: o.parentOrderId,
    childOrderId: o.childOrderId,
    filledCents: o.filledCents,
    feeCents: o.feeCents,
    placedLimitCentiBps: o.placedLimitCentiBps,
    clearedIn: o.clearedIn === null ? null : o.clearedIn.auctionId,
  };
}

/** An auction as the document holds it. */
function auctionDocument(a: Auction, copy: <T>(value: T) => T): SnapshotAuction {
  return {
    auctionId: a.auctionId,
    phase: a.phase,
    opensAt: a.opensAt,
    locksAt: toTime(a.locksAt),
    clearsAt: toTime(a.clearsAt),
    clearedAt: a.clearedAt,
    settleAt: a.settleAt === null ? null : toTime(a.settleAt),
    settledAt: a.settledAt,
    clearingFeeCentiBps: a.clearingFeeCentiBps,
    matchedCents: a.matchedCents,
    fillsCount: a.fillsCount,
    orders: orderIds(a.orders),
    pending: copy(record(a.pending, same)),
    placed: record(a.placed, same),
    cyclesHeld: a.cyclesHeld,
  };
}

function orderIds(orders: readonly Order[]): string[] {
  const ids = new Array<string>(orders.length);
  for (let i = 0; i < orders.length; i++) ids[i] = (orders[i] as Order).orderId;
  return ids;
}

const same = <T>(value: T): T => value;

/**
 * `Object.fromEntries(map)` with each value mapped, without its [key, value] pairs. Assignment
 * orders keys as fromEntries does; only `__proto__` needs defining (assigning it would set the
 * prototype).
 */
function record<V, R>(map: ReadonlyMap<string, V>, value: (v: V) => R): Record<string, R> {
  const out: Record<string, R> = {};
  map.forEach((v, key) => {
    if (key === '__proto__')
      Object.defineProperty(out, key, {
        value: value(v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[key] = value(v);
  });
  return out;
}

/** The values of `map` in order, each mapped, in an array allocated once. */
function list<V, R>(
  map: { readonly size: number; forEach(fn: (v: V) => void): void },
  value: (v: V) => R,
): R[] {
  const out = new Array<R>(map.size);
  let i = 0;
  map.forEach((v) => {
    out[i++] = value(v);
  });
  return out;
}

/**
 * The state as a JSON-safe document (deep copies: the engine may run on). `shared` skips the
 * copies for a document serialized before the engine moves again (the store's checkpoint): with a
 * long run's activity log the copy was most of the checkpoint's memory peak.
 */
export function exportEngineState(s: EngineState, shared = false): EngineStateDocument {
  const copy = shared ? same : deepCopy;
  return {
    entities: copy([...s.entities.values()]),
    wallets: copy([...s.wallets.values()]),
    fiatAccounts: copy([...s.fiatAccounts.values()]),
    orders: list(s.orders, orderDocument),
    ordersByEntity: record(s.ordersByEntity, orderIds),
    auctions: list(s.auctions, (a) => auctionDocument(a, copy)),
    currentAuctionId: s.currentAuctionId,
    settlingAuctionId: s.settlingAuctionId,
    lastClearedAuctionId: s.lastClearedAuctionId,
    withdrawals: copy([...s.withdrawals.values()]),
    activeWithdrawals: [...s.activeWithdrawals],
    fallbacks: orderIds(s.fallbacks),
    wires: copy(s.wires),
    house: { ...s.house },
    issuer: { ...s.issuer },
    initialTotals: { ...s.initialTotals },
    seededLedgers: copy(s.seededLedgers),
    exposure: copy(record(s.exposure, same)),
    activity: copy(record(s.activity, same)),
  };
}

// A restored order or auction is built by the same literal as a new one (orderRecord, newAuction),
// whatever the key order of the document it came from: the export above relies on those shapes,
// and the engine's hot paths on one hidden class per kind (records.ts).

/** A document's order, live; its auction is linked once the auctions exist. */
function liveOrder(o: SnapshotOrder): Order {
  // orderRecord's literal, then the fields a new order starts at their first values.
  const order = orderRecord(o, o.auctionId, o.createdAt);
  order.status = o.status;
  order.updatedAt = o.updatedAt;
  order.childOrderId = o.childOrderId;
  order.filledCents = o.filledCents;
  order.feeCents = o.feeCents;
  order.placedLimitCentiBps = o.placedLimitCentiBps;
  return order;
}

/** A document's auction, live, with its orders resolved. */
function liveAuction(a: SnapshotAuction, orders: Order[]): Auction {
  return {
    auctionId: a.auctionId,
    phase: a.phase,
    opensAt: a.opensAt,
    locksAt: fromTime(a.locksAt),
    clearsAt: fromTime(a.clearsAt),
    clearedAt: a.clearedAt,
    settleAt: a.settleAt === null ? null : fromTime(a.settleAt),
    settledAt: a.settledAt,
    clearingFeeCentiBps: a.clearingFeeCentiBps,
    matchedCents: a.matchedCents,
    fillsCount: a.fillsCount,
    orders,
    pending: new Map(Object.entries(a.pending)),
    placed: new Map(Object.entries(a.placed)),
    cyclesHeld: a.cyclesHeld,
  };
}

/** The document's references do not resolve (an order or auction named but absent). */
export class SnapshotReferenceError extends RangeError {}

/**
 * A live state from a document (checked for shape by the caller; references checked here). The
 * document is copied first, unless `owned`: one nobody else holds (a restore's own checked copy).
 */
export function importEngineState(d: EngineStateDocument, owned = false): EngineState {
  const doc = owned ? d : deepCopy(d);
  const auctions = new Map<number, Auction>();
  const orders = new OrderIndex();
  // Ids unique: snapshot/checks.ts refuses a document that repeats one.
  for (const o of doc.orders) orders.add(o.orderId, liveOrder(o));
  const order = (id: string, where: string): Order => {
    const o = orders.get(id);
    if (!o) throw new SnapshotReferenceError(`${where} names order ${id}, which is not in state.orders`);
    return o;
  };
  for (const a of doc.auctions) {
    const admitted = a.orders.map((id) => order(id, `state.auctions[${a.auctionId}].orders`));
    auctions.set(a.auctionId, liveAuction(a, admitted));
  }
  for (const o of doc.orders) {
    if (o.clearedIn === null) continue;
    const a = auctions.get(o.clearedIn);
    if (!a)
      throw new SnapshotReferenceError(
        `order ${o.orderId} cleared in auction ${o.clearedIn}, not in state.auctions`,
      );
    order(o.orderId, 'state.orders').clearedIn = a;
  }
  for (const id of [doc.currentAuctionId, doc.settlingAuctionId, doc.lastClearedAuctionId])
    if (id !== null && !auctions.has(id))
      throw new SnapshotReferenceError(
        `auction ${id} is named current, settling or last cleared but is not in state.auctions`,
      );
  const entities = new Map(doc.entities.map((e) => [e.id, e]));
  return {
    entities,
    byApiKey: new Map(doc.entities.map((e) => [e.apiKey, e])),
    wallets: new Map(doc.wallets.map((w) => [w.id, w])),
    fiatAccounts: new Map(doc.fiatAccounts.map((f) => [f.id, f])),
    orders,
    ordersByEntity: new Map(
      Object.entries(doc.ordersByEntity).map(([id, list]) => [
        id,
        list.map((oid) => order(oid, `state.ordersByEntity[${id}]`)),
      ]),
    ),
    auctions,
    currentAuctionId: doc.currentAuctionId,
    settlingAuctionId: doc.settlingAuctionId,
    lastClearedAuctionId: doc.lastClearedAuctionId,
    withdrawals: new Map(doc.withdrawals.map((w) => [w.id, w])),
    activeWithdrawals: new Set(doc.activeWithdrawals),
    fallbacks: doc.fallbacks.map((id) => order(id, 'state.fallbacks')),
    wires: doc.wires,
    house: doc.house,
    issuer: doc.issuer,
    initialTotals: doc.initialTotals,
    seededLedgers: doc.seededLedgers,
    exposure: new Map(Object.entries(doc.exposure)),
    activity: new Map(Object.entries(doc.activity)),
  };
}
