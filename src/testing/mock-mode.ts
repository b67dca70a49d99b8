// The testing layer reaches the client through its public entry (as a user does), so the built
// `match-venue/testing` and `match-venue/simulator` share the main entry's module and its types.
import { InvalidArgumentError } from 'match-venue';
import { createSimulator, loadMarket, loadScenario, type Simulator } from '../simulator/index.js';
import { createReplay, type Replay } from './replay/replay.js';

// Keyed on globalThis through a registered symbol so that every copy of this module in the process
// (ESM and CJS builds, test module graphs) reaches the same simulator: mock clients trade together.
const SHARED = Symbol.for('match-venue.mock-simulator');

/**
 * What an `environment: 'mock'` client loads from this entry: a web handler answering in-process,
 * and where streams connect. The client spells the same shape (src/client/mock-mode.ts): the main
 * entry never imports the testing layer, nor this layer the client's internals.
 */
export interface MockBinding {
  /** Answers one request in-process (no socket). */
  handle(request: Request): Promise<Response>;
  /** The WebSocket base URL for streams (the shared simulator starts listening on loopback when first asked). */
  wsUrl(): Promise<string>;
}

type SharedSlot = { [SHARED]?: Promise<Simulator> };

/**
 * The process-wide simulator behind `environment: 'mock'`, for its controls (`clearAuction`,
 * `advance`, `reset`, `setFaults`, …). Created the first time anything asks for it.
 */
export function getMockSimulator(): Promise<Simulator> {
  const slot = globalThis as SharedSlot;
  // Manual clock by default, like the simulator itself: a test suite flipped to mock mode stays
  // deterministic. MATCH_VENUE_MOCK_CLOCK=real lets auctions cycle on their own. The clock starts
  // at the wall-clock time unless MATCH_VENUE_MOCK_START_TIME (ISO instant or epoch ms) fixes it.
  const clock = process.env.MATCH_VENUE_MOCK_CLOCK === 'real' ? 'real' : 'manual';
  const start = process.env.MATCH_VENUE_MOCK_START_TIME || undefined;
  // MATCH_VENUE_MOCK_MARKET (a preset or a JSON/YAML file) adds background participants; off by default.
  const marketName = process.env.MATCH_VENUE_MOCK_MARKET || undefined;
  // MATCH_VENUE_MOCK_SCENARIO (a JSON/YAML scenario file); the variables above win over its settings.
  const scenarioFile = process.env.MATCH_VENUE_MOCK_SCENARIO || undefined;
  slot[SHARED] ??= Promise.resolve().then(async () => {
    let market: Awaited<ReturnType<typeof loadMarket>> | undefined;
    try {
      market = marketName === undefined ? undefined : await loadMarket(marketName);
    } catch (err) {
      throw new InvalidArgumentError(`MATCH_VENUE_MOCK_MARKET: ${err instanceof Error ? err.message : err}`);
    }
    let scenario: Awaited<ReturnType<typeof loadScenario>> | undefined;
    try {
      scenario = scenarioFile === undefined ? undefined : await loadScenario(scenarioFile);
    } catch (err) {
      throw new InvalidArgumentError(
        `MATCH_VENUE_MOCK_SCENARIO: ${err instanceof Error ? err.message : err}`,
      );
    }
    try {
      return createSimulator({
        // The clock variable is read only when set, so that a scenario's clock can apply.
        clock: process.env.MATCH_VENUE_MOCK_CLOCK ? clock : (scenario?.clock?.mode ?? clock),
        startTime: start && /^\d+$/.test(start) ? Number(start) : start,
        ...(market === undefined ? {} : { market }),
        ...(scenario === undefined ? {} : { scenario }),
      });
    } catch (err) {
      throw new InvalidArgumentError(
        `MATCH_VENUE_MOCK_START_TIME: ${err instanceof Error ? err.message : err}`,
      );
    }
  });
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

const SHARED_REPLAY = Symbol.for('match-venue.mock-replay');

type SharedReplaySlot = { [SHARED_REPLAY]?: Map<string, Promise<Replay>> };

/**
 * The replay behind mock mode while MATCH_VENUE_MOCK_CASSETTE names a cassette file (undefined
 * without it): one per file for the process, like the shared simulator, so every mock-mode client
 * reads the same recorded answers in turn. A cassette that cannot be used rejects with its
 * CassetteError (the file and line), and is read again on the next ask.
 */
export function getMockReplay(): Promise<Replay | undefined> {
  const file = process.env.MATCH_VENUE_MOCK_CASSETTE?.trim();
  if (!file) return Promise.resolve(undefined);
  const slot = globalThis as SharedReplaySlot;
  slot[SHARED_REPLAY] ??= new Map();
  const replays = slot[SHARED_REPLAY];
  let replay = replays.get(file);
  if (!replay) {
    replay = createReplay(file);
    replays.set(file, replay);
    replay.catch(() => replays.delete(file));
  }
  return replay;
}

/**
 * What an `environment: 'mock'` client asks for (it loads this module by the package's own name,
 * `match-venue/testing`): the shared simulator as a web handler, and its WebSocket URL; with
 * MATCH_VENUE_MOCK_CASSETTE, the cassette's replay instead (no simulator is made).
 */
export async function mockBinding(): Promise<MockBinding> {
  const replay = await getMockReplay();
  if (replay) return { handle: replay.handle, wsUrl: replay.wsUrl };
  const sim = await getMockSimulator();
  return { handle: (request) => sim.handle(request), wsUrl: getMockWsUrl };
}
