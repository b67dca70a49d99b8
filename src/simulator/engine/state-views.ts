/**
 * Read-only views of the engine's state: what modules outside src/simulator/engine/ may hold of it
 * (`VenueEngine.state`, the auctions a background market is handed). The engine is the only writer
 * of its state (state.ts is private to engine/, .dependency-cruiser.cjs `engine-state-private`):
 * others read through these views and change it only through the engine's operations. Writing
 * through a view is a type error: its maps are ReadonlyMaps, its lists readonly arrays, its records
 * Readonly. The objects are the engine's own (no copies): a view read after a step shows that step.
 */
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

/**
 * `state.orders` without its writers: the orders in memory by id, in creation order.
 * @hidden
 */
export interface OrderIndexView extends Iterable<[string, Readonly<Order>]> {
  readonly size: number;
  get(orderId: string): Readonly<Order> | undefined;
  has(orderId: string): boolean;
  keys(): IterableIterator<string>;
  values(): IterableIterator<Readonly<Order>>;
  entries(): IterableIterator<[string, Readonly<Order>]>;
}

/**
 * An auction as the engine holds it, read-only.
 * @hidden
 */
export interface AuctionView extends Readonly<Omit<Auction, 'orders' | 'pending' | 'placed'>> {
  /** Every order admitted into this auction, in admission order. */
  readonly orders: readonly Readonly<Order>[];
  /** entityId -> its pending orders here by side. */
  readonly pending: ReadonlyMap<string, Readonly<SideCounts>>;
  /** entityId -> orders it placed here (cancelled ones included, roll children not). */
  readonly placed: ReadonlyMap<string, number>;
}

/**
 * The engine's whole state, read-only (`sim.engine.state`), for `checkInvariants`, tests and
 * debugging. Its shape follows the engine's internals and is not a stable API.
 * @hidden
 */
export interface EngineStateView {
  readonly entities: ReadonlyMap<string, Readonly<Entity>>;
  readonly byApiKey: ReadonlyMap<string, Readonly<Entity>>;
  readonly wallets: ReadonlyMap<string, Readonly<Wallet>>;
  readonly fiatAccounts: ReadonlyMap<string, Readonly<FiatAccount>>;
  readonly orders: OrderIndexView;
  readonly ordersByEntity: ReadonlyMap<string, readonly Readonly<Order>[]>;
  readonly auctions: ReadonlyMap<number, AuctionView>;
  readonly currentAuctionId: number;
  readonly settlingAuctionId: number | null;
  readonly lastClearedAuctionId: number | null;
  readonly withdrawals: ReadonlyMap<string, Readonly<Withdrawal>>;
  readonly activeWithdrawals: ReadonlySet<string>;
  readonly fallbacks: readonly Readonly<Order>[];
  readonly wires: readonly Readonly<Wire>[];
  readonly house: Readonly<Ledger>;
  readonly issuer: Readonly<Ledger>;
  readonly initialTotals: Readonly<{ usdCents: number; stablecoinCents: number; eurCents: number }>;
  readonly seededLedgers: Readonly<{ house: Readonly<Ledger>; issuer: Readonly<Ledger> }>;
  readonly exposure: ReadonlyMap<string, Readonly<SideCounts>>;
  readonly activity: ReadonlyMap<string, ActivityLogView>;
}

/**
 * An entity's settled fills with their prefix sums (state.ts ActivityLog), read-only.
 * @hidden
 */
export interface ActivityLogView {
  /** When each fill settled (matchedAt), in order. */
  readonly at: readonly number[];
  /** Prefix sums (length at.length + 1): filled volume, MINT rebates, BURN fees. */
  readonly matched: readonly number[];
  readonly rebates: readonly number[];
  readonly fees: readonly number[];
}
