/** How a VenueEngine is built (engine.ts): its options, its population hook, its snapshot. */
import type { MarketDesk } from './market-desk.js';
import type { OrderArchive } from './order-archive.js';
import type { EngineSeeder } from './seeder.js';
import type { EngineStateDocument } from './snapshot.js';
import type { AuctionView } from './state-views.js';
import type { EngineConfig, SimulatorEvent } from './types.js';

/**
 * How a VenueEngine is built.
 * @hidden
 */
export interface EngineOptions {
  /** The injected clock (ms since the epoch). */
  now: () => number;
  config?: Partial<EngineConfig>;
  /** Seeds the generator behind settlement-failure rates. */
  seed?: number;
  onEvent?: (event: SimulatorEvent) => void;
  /**
   * Whether anyone reads market events (`entityId` undefined) or this entity's account events; the
   * engine builds no event nobody reads. Default: every event while `onEvent` is given, none without.
   */
  wantsEvents?: (entityId?: string) => boolean;
  /** A background population (market/population.ts): its entities join the state, it acts as auctions open. */
  population?: EnginePopulation;
  /** With a store (src/simulator/store/): where evicted orders are read back. */
  archive?: OrderArchive;
  /** Runs after every step (the store's checkpoint); not during one. */
  afterStep?: () => void;
}

/**
 * The engine's changing state as JSON.
 * @hidden
 */
export interface EngineSnapshot {
  /** The engine's clock: the instant of its last step (epoch ms). */
  time: number;
  /** The fault draws' generator word. */
  random: number;
  /** The population has yet to act in auction 1. */
  firstOpenPending: boolean;
  state: EngineStateDocument;
}

/**
 * What the engine needs of a background population.
 * @hidden
 */
export interface EnginePopulation {
  /** Adds its entities (with their balances) to a fresh state, through the engine's seeder. */
  seed(seeder: EngineSeeder): void;
  /** Places its orders in an auction that just opened, through the engine's own rules (the desk's). */
  onOpened(desk: MarketDesk, auction: AuctionView): void;
  /** About how many orders it adds over `auctions` auctions from `fromAuctionId` on (market/rate.ts). */
  expectedOrders?(fromAuctionId: number, auctions: number, capPerEntity: number, ceiling: number): number;
}
