/**
 * A scenario at run time: the engine's population hook (engine.ts, EnginePopulation). It sets the
 * scenario's entities on every fresh state, and at the start of each auction applies what the
 * schedule names for that auction number (a new market phase, a new fault set), writing it to the
 * event log as a control action before the participants act. Stateless apart from the market
 * population: what applies depends on the auction number alone, so a run is replayed by its seed
 * and a restored snapshot carries on. With a scenario every auction runs (no idle clock jumps).
 */
import type { EnginePopulation } from '../engine/engine.js';
import type { FaultSettings } from '../engine/faults.js';
import type { MarketDesk } from '../engine/market-desk.js';
import { parseCents } from '../engine/money.js';
import type { EngineSeeder } from '../engine/seeder.js';
import type { AuctionView } from '../engine/state-views.js';
import type { SettlementFaults } from '../engine/types.js';
import { MARKET_PRESETS, type MarketConfig } from '../market/config.js';
import { MarketPopulation, populationFor } from '../market/population.js';
import type { ResolvedScenario } from './check.js';
import { applyEntities } from './entities.js';

/** What a run needs of its simulator. */
export interface ScenarioHooks {
  /** Writes a control line to the event log (at the simulated instant `at`). */
  control(at: number, args: object): void;
  /** Replaces the fault set; answers the settlement faults the engine is to use from now. */
  setFaults(faults: FaultSettings): SettlementFaults;
}

/** No background market: a phase of `market: null`, or the auctions before the first phase. */
const OFF: MarketConfig = {
  ...MARKET_PRESETS.calm,
  noise: { ...MARKET_PRESETS.calm.noise, count: 0 },
  liquidity: { ...MARKET_PRESETS.calm.liquidity, count: 0 },
};

const cents = (usd: string) => parseCents(usd) as number;

/**
 * The participants a scenario's phases need (each kind's largest count, the largest balance), as a
 * configuration: what `market` becomes for a scenario's simulator, and what a snapshot carries.
 * Undefined when no phase has a market.
 */
export function scenarioMarket(scenario: ResolvedScenario): MarketConfig | undefined {
  const configs = scenario.phases.flatMap((p) => (p.config ? [p.config] : []));
  const [first] = configs;
  if (!first) return undefined;
  const most = (f: (c: MarketConfig) => number) => Math.max(...configs.map(f));
  const balance = configs.reduce((b, c) => (cents(c.balance) > cents(b) ? c.balance : b), first.balance);
  return {
    ...first,
    noise: { ...first.noise, count: most((c) => c.noise.count) },
    liquidity: { ...first.liquidity, count: most((c) => c.liquidity.count) },
    balance,
  };
}

/** The fault set of auction 1: the simulator starts (and resets) with it, before any request. */
export function initialFaults(scenario: ResolvedScenario): FaultSettings {
  return scenario.faults.find((f) => f.atAuction === 1)?.set ?? {};
}

export class ScenarioRun implements EnginePopulation {
  /** The background participants (the phases', or an explicit `market`'s); undefined: none. */
  readonly market: MarketPopulation | undefined;

  constructor(
    private readonly scenario: ResolvedScenario,
    /** `market`: the scenario's own (scenarioMarket), or an explicit option that replaced it. */
    market: MarketConfig | undefined,
    seed: number,
    private readonly hooks: ScenarioHooks,
  ) {
    const phases = scenario.phases;
    if (market && phases.length > 0) {
      const configFor = (auctionId: number): MarketConfig => {
        let config: MarketConfig | null = null;
        for (const p of phases) if (p.fromAuction <= auctionId) config = p.config;
        return config ?? OFF;
      };
      const sizes = { noise: market.noise.count, lp: market.liquidity.count, balance: market.balance };
      this.market = new MarketPopulation(configFor, seed, sizes);
    } else this.market = market && populationFor(market, seed);
  }

  seed(seeder: EngineSeeder): void {
    applyEntities(seeder, this.scenario.entities);
    this.market?.seed(seeder);
  }

  onOpened(desk: MarketDesk, auction: AuctionView): void {
    const auctionId = auction.auctionId;
    const phase = this.scenario.phases.find((p) => p.fromAuction === auctionId);
    const faults = this.scenario.faults.find((f) => f.atAuction === auctionId);
    if (phase || faults)
      this.hooks.control(desk.time, {
        auctionId,
        ...(phase ? { market: phase.market } : {}),
        ...(faults ? { faults: faults.set } : {}),
      });
    // Auction 1's faults are in force from creation (initialFaults); a later set from this step
    // on, settlements within it included.
    if (faults && auctionId > 1) desk.setFaults(this.hooks.setFaults(faults.set));
    this.market?.onOpened(desk, auction);
  }

  expectedOrders(fromAuctionId: number, auctions: number, capPerEntity: number, ceiling: number): number {
    return this.market?.expectedOrders(fromAuctionId, auctions, capPerEntity, ceiling) ?? 0;
  }
}
