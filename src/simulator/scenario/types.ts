/** A scenario document's shape as TypeScript (schema.ts is the same shape as a zod schema). */
import type { FaultSettings } from '../engine/faults.js';
import type { MarketOption } from '../market/config.js';

/** One entity's balances, USD strings: a seeded entity's replace its opening ones; a new one starts with them (default 0.00). */
export interface ScenarioEntity {
  /** Its USD stablecoin wallet (BURN orders draw on it). */
  wallet?: string | undefined;
  /** Its venue-only balance (MINT orders draw on it), prefunded as the seeded minter's. */
  venueBalance?: string | undefined;
  /** Its bank (fiat) account: settlement proceeds, withdrawals, wires. */
  bank?: string | undefined;
  /** A new entity only: the side its account summary reports. Default `BURN`. */
  fundingSide?: 'BURN' | 'MINT' | undefined;
}

/** The clock settings: the simulator options of the same names (an option given as well wins). */
export interface ScenarioClock {
  /** `manual`: time moves only by the controls; `real`: auctions cycle on the wall clock. */
  mode?: 'manual' | 'real' | undefined;
  /** The clock at creation: an ISO 8601 instant with `Z` or an offset, or epoch ms. */
  startTime?: string | number | undefined;
  /** Auction length, ms. */
  cycleMs?: number | undefined;
  /** Lock window before the clear, ms; shorter than `cycleMs`. */
  lockMs?: number | undefined;
  /** Clear to settlement, ms. */
  settleMs?: number | undefined;
}

/** From auction `fromAuction` on, this background market (`null`: none). */
export interface ScenarioPhaseDocument {
  /** The first auction of the phase (1-based); phases ascend. */
  fromAuction: number;
  /** A preset name, a configuration over one, or `null` for no background market. */
  market: MarketOption | null;
}

/** At the start of auction `atAuction`, the fault set becomes `set` (as `POST /_sim/faults`; `{}` clears). */
export interface ScenarioFaultEntry {
  /** The auction (1-based); entries ascend. Auction 1's set is in force from creation. */
  atAuction: number;
  /** The whole fault set from that auction on. */
  set: FaultSettings;
}

/** A scenario file (docs/MARKET.md, Scenarios; JSON Schema: `schemas/scenario.schema.json`). */
export interface ScenarioDocument {
  /** The JSON Schema, for editors; not read. */
  $schema?: string | undefined;
  /** The format version: 1. */
  version: 1;
  /** What the scenario is for; not read. */
  description?: string | undefined;
  /** Seeds the fault draws and the background market. */
  seed?: number | undefined;
  /** Clock settings. */
  clock?: ScenarioClock | undefined;
  /** By name: a seeded entity (`burner`, `minter`, `ineligible`) or a new one (key `TEST_API_KEY:<name>:sim`). */
  entities?: Record<string, ScenarioEntity> | undefined;
  /** The background market by auction number; none before the first phase. */
  phases?: ScenarioPhaseDocument[] | undefined;
  /** The fault schedule by auction number. */
  faults?: ScenarioFaultEntry[] | undefined;
}
