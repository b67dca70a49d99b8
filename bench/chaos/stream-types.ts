/**
 * Options and report of the stream chaos (bench/chaos/stream.ts), apart so the driver stays short.
 */
import type { MirrorChaosReport, MirrorCheckOptions } from './mirror-check.js';

export interface StreamChaosOptions {
  /** How long orders change and sockets die. Default 10. */
  seconds?: number;
  seed?: number;
  /** Socket kill interval, uniform in [min, max] ms. Default [100, 500]. */
  killEveryMs?: readonly [number, number];
  /** Frames the socket server keeps per sequence for `since` replay. Default 64. */
  replayBufferSize?: number;
  /**
   * Share of kills that are longer outages: reconnection is held until more events happened than
   * the server can replay, so the consumer must resync over REST. Default 0.25.
   */
  longOutageRate?: number;
  /** Bound on the wait for the consumer to catch up at the end, ms. Default 15,000. */
  catchUpMs?: number;
  /** `src/` directory the SDK and simulator come from. Default this checkout's. */
  srcRoot?: string;
  /**
   * The account mirrors (bench/chaos/mirror-check.ts): false runs without them. Skipped by itself
   * for a source tree without `account.mirror`.
   */
  mirror?: MirrorCheckOptions | false;
  /** A quiet point (changes paused, the mirrors compared with the venue) this often, ms. Default 1,000. */
  quietEveryMs?: number;
}

export interface StreamChaosReport {
  srcRoot: string;
  seed: number;
  seconds: number;
  ms: number;
  operations: {
    placed: number;
    counterpartyPlaced: number;
    modified: number;
    /** Modifies in the same millisecond as the order's previous state. */
    sameMsModifies: number;
    cancelled: number;
    cancelAlls: number;
    clears: number;
    clockAdvances: number;
    /** Operations the venue refused (e.g. a cancel racing a clear); expected few or none. */
    refused: number;
  };
  kills: number;
  /** Kills held down until replay was impossible. */
  longOutages: number;
  reconnects: number;
  resyncs: number;
  /** Resync markers (`stream.resync`) the consumer received. */
  resyncMarkers: number;
  /** Events the client itself dropped as already seen. */
  clientDuplicatesDropped: number;
  /** Account events the server published for the burner (its last seq). */
  accountEventsPublished: number;
  /** Highest seq among the events the consumer received. */
  lastSeqDelivered: number;
  liveEventsDelivered: number;
  restEventsDelivered: number;
  orders: number;
  /** Distinct order states in the simulator's truth. */
  expectedStates: number;
  deliveredStates: number;
  duplicates: number;
  missing: number;
  missingFinal: number;
  collapsedByResync: number;
  /** States delivered after a later state of the same order had been (the consumer went back in time). */
  outOfOrder: number;
  /** Delivered order states that match no state the simulator had (expected 0). */
  unexpected: number;
  /** An order placed after the last kill reached the consumer before the bound. */
  caughtUp: boolean;
  /** A few missing states, `orderId status feeBps updatedAt filled`. */
  examples: string[];
  /** A few states delivered more than once, with how each copy came (`live@seq`, `rest@seq`). */
  duplicateExamples: string[];
  /** The mirrors at the quiet points (`available: false` when none ran). */
  mirror: MirrorChaosReport;
}
