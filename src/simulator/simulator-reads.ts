import type { AllOrdersQuery } from './engine/dashboard-views.js';
import type { VenueEngine } from './engine/engine.js';
import type { ClearingReport, IndicativeReport } from './engine/report.js';
import type { EngineStateView } from './engine/state-views.js';
import type { EntityRef } from './simulator-types.js';

/**
 * What a simulator answers from its engine without changing anything: the read side of
 * {@link Simulator}, apart from its controls (simulator.ts), which replace the engine on reset and
 * restore.
 */
export abstract class SimulatorReads {
  /** The engine, for benchmarks and invariant checks; not a stable API. @internal */
  engine!: VenueEngine;

  // The engine-derived results below carry written return types: inferred ones made the emitted
  // declarations name WireMoney through import("./index.js"), a cycle with the entry that re-exports
  // this class, which the DTS bundle (rollup) could only split into chunks importing each other.
  /** The data of the WebSocket `auction.snapshot`: the current auction, the one settling and the last clear. */
  marketSnapshot(): ReturnType<VenueEngine['marketSnapshot']> {
    return this.engine.marketSnapshot();
  }

  /** The entity a (test) API key belongs to, or undefined. */
  entityForApiKey(apiKey: string): EntityRef | undefined {
    const e = this.engine.entityForApiKey(apiKey);
    return e ? { entityId: e.id, name: e.name } : undefined;
  }

  /**
   * The clearing report of a cleared auction (`GET /_sim/auctions/{auctionId}`; docs/MARKET.md);
   * undefined when the auction is unknown, still open, or was skipped idle by a clock jump.
   */
  auctionReport(auctionId: number): ClearingReport | undefined {
    return this.engine.report(auctionId);
  }

  /** The open auction's indicative fee, volume and imbalance from what rests now (`GET /_sim/auctions/current`). */
  currentAuctionReport(): IndicativeReport {
    return this.engine.indicative();
  }

  /** The newest orders over every entity, filtered (`GET /_sim/orders`, the dashboard's table). */
  allOrders(query: AllOrdersQuery): ReturnType<VenueEngine['allOrders']> {
    return this.engine.allOrders(query);
  }

  /** The last `limit` auctions that cleared, newest first (`GET /_sim/auctions`). */
  clearedAuctions(limit: number): ReturnType<VenueEngine['clearedAuctions']> {
    return this.engine.clearedAuctions(limit);
  }

  /**
   * Whether the books balance: every violation found, empty when sound. Money conserved per
   * currency over every account (participants, fiat accounts, house, issuer); the house's and the
   * issuer's ledgers equal to what the records explain; reservations equal to what resting and
   * settling orders and in-flight withdrawals hold; no negative balance; each auction's BURN fills
   * equal to its MINT fills; fills and roll lineage consistent. `records: false` leaves out what
   * only the whole history explains, which a stored simulator (`store`) has partly evicted.
   */
  checkInvariants(options: { records?: boolean } = {}): string[] {
    return this.engine.checkInvariants(options);
  }

  /** The engine's state, read-only, for tests; not a stable API. @internal */
  get state(): EngineStateView {
    return this.engine.state;
  }
}
