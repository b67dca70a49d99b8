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

const SHARED_WS = Symbol.for('match-venue.mock-simulator.ws');

type SharedWsSlot = { [SHARED_WS]?: Promise<string> };

/**
 * The WebSocket URL of the shared mock simulator, which starts listening on loopback the first time
 * a mock-mode client streams. It must be that same simulator: only its ticket authority verifies
 * the tickets its REST side issues. The server is unref'd, so a test suite in mock mode still exits
 * once its streams are closed.
 */
export function getMockWsUrl(): Promise<string> {
  const slot = globalThis as SharedWsSlot;
  slot[SHARED_WS] ??= getMockSimulator()
    .then(async (sim) => {
      const running = await sim.listen({ host: '127.0.0.1', port: 0 });
      running.server.unref();
      return running.wsUrl;
    })
    .catch((error: unknown) => {
      // A failed start is not remembered: the stream's next reconnect attempt tries again.
      delete slot[SHARED_WS];
      throw error;
    });
  return slot[SHARED_WS];
}
