import { ledgerRecord } from './account-records.js';
import type { OrderArchive } from './order-archive.js';
import { OrderIndex } from './order-index.js';
import { SEED_BALANCES, seedWorld } from './seed.js';
import type { EngineStateView } from './state-views.js';
import type {
  Auction,
  EngineConfig,
  Entity,
  FiatAccount,
  Ledger,
  Order,
  SettlementFaults,
  SideCounts,
  SimulatorEvent,
  Wallet,
  Wire,
  Withdrawal,
} from './types.js';

/**
 * The engine's whole state, writable: private to src/simulator/engine/ (.dependency-cruiser.cjs
 * `engine-state-private`), whose VenueEngine is its only writer. Outside engine/ it is read as an
 * EngineStateView (state-views.ts) and changed only through the engine's operations.
 */
export interface EngineState {
  entities: Map<string, Entity>;
  byApiKey: Map<string, Entity>;
  wallets: Map<string, Wallet>;
  fiatAccounts: Map<string, FiatAccount>;
  /** Every order in memory by id, in creation order, one Map per auction (order-index.ts). */
  orders: OrderIndex;
  /** Each entity's orders in creation order. */
  ordersByEntity: Map<string, Order[]>;
  auctions: Map<number, Auction>;
  currentAuctionId: number;
  /** The previous auction while it settles (during the current one's opening seconds). */
  settlingAuctionId: number | null;
  /** The auction cleared last (not always current - 1: a clock jump can hold an auction open). */
  lastClearedAuctionId: number | null;
  withdrawals: Map<string, Withdrawal>;
  /** Withdrawals the payout processor has not completed yet. */
  activeWithdrawals: Set<string>;
  /**
   * Orders whose remainder a `fallback` election sent to the standard minting product (at par, no
   * fee), in routing order. The order says it all: the remainder is its unfilled amount, the time
   * its last update (settlement is its final change).
   */
  fallbacks: Order[];
  /** Settled wires that landed on venue-only balances, in landing order (`POST /_sim/wires`). */
  wires: Wire[];
  /** The venue's own account: takes fees, pays rebates, absorbs rounding and failed counterparties. */
  house: Ledger;
  /**
   * The stablecoin issuer / standard minting product: holds the USD behind venue-only stablecoin
   * (it takes a wire's USD and issues as much venue-only stablecoin) and redeems at par.
   */
  issuer: Ledger;
  initialTotals: { usdCents: number; stablecoinCents: number; eurCents: number };
  /** house and issuer as seeded: the invariant checker explains every change since from the records. */
  seededLedgers: { house: Ledger; issuer: Ledger };
  /** entityId -> pending orders by side (the account summary's exposure), kept by setStatus/admit. */
  exposure: Map<string, SideCounts>;
  /** entityId -> settled fills in matchedAt order with prefix sums, for O(log n) activity windows. */
  activity: Map<string, ActivityLog>;
}

export interface ActivityLog {
  at: number[];
  /** Prefix sums (length at.length + 1): filled volume, MINT rebates, BURN fees. */
  matched: number[];
  rebates: number[];
  fees: number[];
}

/** Everything an engine step needs; `time` is the instant the step happens at. */
export interface EngineContext {
  state: EngineState;
  config: EngineConfig;
  faults: SettlementFaults;
  random: () => number;
  time: number;
  emit: (event: SimulatorEvent) => void;
  /**
   * Whether anyone reads market events (no entityId) or this entity's account events. An event
   * nobody reads is not built: at a 1,000,000-order clear that is most of the work.
   */
  wants: (entityId?: string) => boolean;
  /** Entities whose balances changed during the step: one balance.updated each at the end. */
  dirty: Set<string>;
  /**
   * A background population acting as each auction opens (market/population.ts). With one, no
   * auction is idle: clock jumps run every cycle (clock.ts).
   */
  opened?: (ctx: EngineContext, auction: Auction) => void;
  /** With a store: orders evicted from memory, for an idempotent replay of their keys. */
  archive?: OrderArchive;
}

const SEEDED_HOUSE: Readonly<Ledger> = {
  usdCents: SEED_BALANCES.houseCents,
  stablecoinCents: SEED_BALANCES.houseCents,
};
// The minter's seeded prefund is a wire that already settled: its USD sits with the issuer, which
// issued as much venue-only stablecoin.
const SEEDED_ISSUER: Readonly<Ledger> = {
  usdCents: SEED_BALANCES.minterPrefundCents,
  stablecoinCents: -SEED_BALANCES.minterPrefundCents,
};

export function createState(config: EngineConfig, startTime: number): EngineState {
  const world = seedWorld();
  const state: EngineState = {
    entities: new Map(world.entities.map((e) => [e.id, e])),
    byApiKey: new Map(world.entities.map((e) => [e.apiKey, e])),
    wallets: new Map(world.wallets.map((w) => [w.id, w])),
    fiatAccounts: new Map(world.fiatAccounts.map((f) => [f.id, f])),
    orders: new OrderIndex(),
    ordersByEntity: new Map(world.entities.map((e) => [e.id, []])),
    auctions: new Map(),
    currentAuctionId: 1,
    settlingAuctionId: null,
    lastClearedAuctionId: null,
    withdrawals: new Map(),
    activeWithdrawals: new Set(),
    fallbacks: [],
    wires: [],
    house: ledgerRecord(SEEDED_HOUSE),
    issuer: ledgerRecord(SEEDED_ISSUER),
    initialTotals: { usdCents: 0, stablecoinCents: 0, eurCents: 0 },
    seededLedgers: { house: SEEDED_HOUSE, issuer: SEEDED_ISSUER },
    exposure: new Map(world.entities.map((e) => [e.id, { BURN: 0, MINT: 0 }])),
    activity: new Map(world.entities.map((e) => [e.id, { at: [], matched: [0], rebates: [0], fees: [0] }])),
  };
  state.auctions.set(1, newAuction(1, startTime, config));
  state.initialTotals = currencyTotals(state);
  return state;
}

export function newAuction(auctionId: number, opensAt: number, config: EngineConfig): Auction {
  const clearsAt = opensAt + config.cycleMs;
  return {
    auctionId,
    phase: 'open',
    opensAt,
    locksAt: clearsAt - config.lockMs,
    clearsAt,
    clearedAt: null,
    settleAt: null,
    settledAt: null,
    clearingFeeCentiBps: null,
    matchedCents: 0,
    fillsCount: 0,
    orders: [],
    pending: new Map(),
    placed: new Map(),
    cyclesHeld: 0,
  };
}

export function currencyTotals(
  state: Pick<EngineStateView, 'house' | 'issuer' | 'entities' | 'fiatAccounts' | 'wallets'>,
): {
  usdCents: number;
  stablecoinCents: number;
  eurCents: number;
} {
  let usd = state.house.usdCents + state.issuer.usdCents;
  let stable = state.house.stablecoinCents + state.issuer.stablecoinCents;
  let eur = 0;
  for (const e of state.entities.values()) stable += e.venueBalanceCents;
  for (const f of state.fiatAccounts.values()) usd += f.balanceCents;
  for (const w of state.wallets.values()) {
    if (w.currency === 'USD') stable += w.balanceCents;
    else eur += w.balanceCents;
  }
  return { usdCents: usd, stablecoinCents: stable, eurCents: eur };
}

export function currentAuction(state: EngineState): Auction {
  const a = state.auctions.get(state.currentAuctionId);
  if (!a) throw new Error(`engine state lost auction ${state.currentAuctionId}`);
  return a;
}

/**
 * The entity's first USD stablecoin wallet: MINT fills and MINT fallbacks pay into it (a MINT
 * order names no wallet). Every entity with a venue account has one.
 */
export function primaryWallet(state: EngineState, entity: Entity): Wallet {
  for (const id of entity.walletIds) {
    const w = state.wallets.get(id);
    if (w?.currency === 'USD') return w;
  }
  throw new Error(`entity ${entity.name} has no USD stablecoin wallet`);
}

export function mustEntity(state: EngineState, entityId: string): Entity {
  const e = state.entities.get(entityId);
  if (!e) throw new Error(`unknown entity ${entityId}`);
  return e;
}
