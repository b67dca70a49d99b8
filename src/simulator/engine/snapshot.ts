/**
 * The engine's state as plain JSON and back (`POST /_sim/snapshot`, `/_sim/restore`). The live
 * state shares objects (an Order sits in `orders`, its entity's list, its auction and maybe
 * `fallbacks`); the document names each by id once, and the import links them again, so a restored
 * engine mutates one object per order exactly as the original did.
 */
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

/**
 * The state as a JSON-safe document (deep copies: the engine may run on). `shared` skips the
 * copies for a document serialized before the engine moves again (the store's checkpoint): with a
 * long run's activity log the copy was most of the checkpoint's memory peak.
 */
export function exportEngineState(s: EngineState, shared = false): EngineStateDocument {
  const copy = shared ? <T>(value: T): T => value : deepCopy;
  return {
    entities: copy([...s.entities.values()]),
    wallets: copy([...s.wallets.values()]),
    fiatAccounts: copy([...s.fiatAccounts.values()]),
    orders: [...s.orders.values()].map(({ clearedIn, ...o }) => ({
      ...o,
      clearedIn: clearedIn?.auctionId ?? null,
    })),
    ordersByEntity: Object.fromEntries(
      [...s.ordersByEntity].map(([id, list]) => [id, list.map((o) => o.orderId)]),
    ),
    auctions: [...s.auctions.values()].map((a) => ({
      ...a,
      locksAt: toTime(a.locksAt),
      clearsAt: toTime(a.clearsAt),
      settleAt: a.settleAt === null ? null : toTime(a.settleAt),
      orders: a.orders.map((o) => o.orderId),
      pending: copy(Object.fromEntries(a.pending)),
      placed: Object.fromEntries(a.placed),
    })),
    currentAuctionId: s.currentAuctionId,
    settlingAuctionId: s.settlingAuctionId,
    lastClearedAuctionId: s.lastClearedAuctionId,
    withdrawals: copy([...s.withdrawals.values()]),
    activeWithdrawals: [...s.activeWithdrawals],
    fallbacks: s.fallbacks.map((o) => o.orderId),
    wires: copy(s.wires),
    house: { ...s.house },
    issuer: { ...s.issuer },
    initialTotals: { ...s.initialTotals },
    seededLedgers: copy(s.seededLedgers),
    exposure: copy(Object.fromEntries(s.exposure)),
    activity: copy(Object.fromEntries(s.activity)),
  };
}

/** The document's references do not resolve (an order or auction named but absent). */
export class SnapshotReferenceError extends RangeError {}

/** A live state from a document (checked for shape by the caller; references checked here). */
export function importEngineState(d: EngineStateDocument): EngineState {
  const doc = deepCopy(d);
  const auctions = new Map<number, Auction>();
  const orders = new Map<string, Order>();
  for (const o of doc.orders) orders.set(o.orderId, { ...o, clearedIn: null });
  const order = (id: string, where: string): Order => {
    const o = orders.get(id);
    if (!o) throw new SnapshotReferenceError(`${where} names order ${id}, which is not in state.orders`);
    return o;
  };
  for (const a of doc.auctions) {
    auctions.set(a.auctionId, {
      ...a,
      locksAt: fromTime(a.locksAt),
      clearsAt: fromTime(a.clearsAt),
      settleAt: a.settleAt === null ? null : fromTime(a.settleAt),
      orders: a.orders.map((id) => order(id, `state.auctions[${a.auctionId}].orders`)),
      pending: new Map(Object.entries(a.pending)),
      placed: new Map(Object.entries(a.placed)),
    });
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
