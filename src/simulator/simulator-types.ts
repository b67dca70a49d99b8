/** Types of the Simulator's surface, kept apart so that simulator.ts holds the wiring. */
import type { JumpView } from './clock/clock-jump.js';
import type { VenueEngine } from './engine/engine.js';
import type { Faults } from './engine/faults.js';
import type { MarketSummary } from './market/population.js';

/** What `GET /_sim/state` answers: the current auction, every entity with its balances, the ledgers. */
export type SimulatorStateView = ReturnType<VenueEngine['snapshot']> & {
  /** The fault set in force: what `GET /_sim/faults` answers. */
  faults: Faults;
  /** `manual` or `real`. */
  clock: 'real' | 'manual';
  /** The background market's participants and what they placed; null without one. */
  market: MarketSummary | null;
  /** The clock jump running (`POST /_sim/clock/advance` answers when it ends); null when none is. */
  jump: JumpView | null;
};

/** `sim.eventLog()`: the log as `GET /_sim/log` answers it. */
export interface EventLogView {
  /** Every line kept, oldest first, each ending with a newline. */
  ndjson: string;
  /** Lines the ring let go (`x-sim-log-dropped`). */
  dropped: number;
}

/** An entity a (test) API key belongs to. */
export interface EntityRef {
  /** The entity id. */
  entityId: string;
  /** Its seeded name. */
  name: string;
}

/** What {@link Simulator.onControl} listeners hear: drop every WebSocket now, or the state was reset. */
export type ControlSignal =
  | {
      /** Drop every WebSocket now. */
      type: 'killSockets';
    }
  | {
      /** The simulator went back to its seeded state. */
      type: 'reset';
    };
