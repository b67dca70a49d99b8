import type { Simulator } from 'match-venue/simulator';

// Keyed on globalThis through a registered symbol so that every copy of this module in the process
// (ESM and CJS builds, test module graphs) reaches the same simulator: mock clients trade together.
const SHARED = Symbol.for('match-venue.mock-simulator');

type SharedSlot = { [SHARED]?: Promise<Simulator> };

/**
 * The process-wide simulator behind `environment: 'mock'`. The simulator is loaded through the
 * package's own `match-venue/simulator` subpath, so the main entry never bundles it and a
 * program that never uses mock mode never loads it.
 */
export function getMockSimulator(): Promise<Simulator> {
  const slot = globalThis as SharedSlot;
  // Manual clock by default, like the simulator itself: a test suite flipped to mock mode stays
  // deterministic. MATCH_VENUE_MOCK_CLOCK=real lets auctions cycle on their own.
  const clock = process.env.MATCH_VENUE_MOCK_CLOCK === 'real' ? 'real' : 'manual';
  slot[SHARED] ??= import('match-venue/simulator').then((mod) => mod.createSimulator({ clock }));
  return slot[SHARED];
}
