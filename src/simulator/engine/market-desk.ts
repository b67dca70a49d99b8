/**
 * What a background population (market/population.ts) and a scenario's schedule (scenario/run.ts)
 * get of the engine as an auction opens (engine.ts hands a MarketDesk to EnginePopulation.onOpened):
 * read-only views of what they read, and the placements and fault change they may make, each through
 * the engine's own rules. They never hold the step's context or the state (state.ts is private to
 * engine/), so the engine stays the only writer of its state.
 */
import { requireEligible } from './orders.js';
import { type ParsedPlacement, type PlaceInput, placeOrder, placeParsed } from './placement.js';
import { type EngineContext, mustEntity } from './state.js';
import type { AuctionView } from './state-views.js';
import type { EngineConfig, PlaceResult, SettlementFaults } from './types.js';

/**
 * The engine as a population sees it during the step in which an auction opened.
 * @hidden
 */
export interface MarketDesk {
  /** The step's instant (epoch ms). */
  readonly time: number;
  readonly config: Readonly<EngineConfig>;
  /** The auction settling now (the one before the auction that opened), if any. */
  settling(): AuctionView | undefined;
  /** A placement from a request's texts, as the HTTP layer's (placement.ts placeOrder). */
  place(entityId: string, input: PlaceInput): PlaceResult;
  /**
   * A placement already in the engine's units: the entity's eligibility first, then the venue's
   * rules from idempotency on (placement.ts placeParsed), as placeOrder checks them.
   */
  placeParsed(entityId: string, p: ParsedPlacement): PlaceResult;
  /** Replaces the settlement faults from this step on, settlements within it included. */
  setFaults(faults: SettlementFaults): void;
}

/** The desk of one step (`ctx`): what it does is that step's. */
export function marketDesk(ctx: EngineContext): MarketDesk {
  return {
    get time() {
      return ctx.time;
    },
    config: ctx.config,
    settling: () => {
      const id = ctx.state.settlingAuctionId;
      return id === null ? undefined : ctx.state.auctions.get(id);
    },
    place: (entityId, input) => placeOrder(ctx, entityId, input),
    placeParsed: (entityId, p) => {
      const entity = mustEntity(ctx.state, entityId);
      requireEligible(entity);
      return placeParsed(ctx, entity, p);
    },
    setFaults: (faults) => {
      ctx.faults = faults;
    },
  };
}
