import { InvalidArgumentError, MatchVenue, type MatchVenueOptions } from 'match-venue';
import {
  createSimulator,
  type Faults,
  type RunningSimulator,
  SEEDED,
  type SeededName,
  type Simulator,
  type SimulatorOptions,
} from '../simulator/index.js';

export interface MockVenueOptions extends SimulatorOptions {
  /** 'manual' (default): time moves only when told; 'real': auctions cycle on their own. */
  clock?: 'manual' | 'real';
  /**
   * Also serve the simulator on a loopback port (HTTP + WebSocket), so `client(...).stream.connect()`
   * works and other processes can reach it. Default false: clients call the simulator in-process.
   */
  listen?: boolean;
}

/** Client options a mock client may still set (everything but the identity and transport). */
export type MockClientOptions = Omit<
  MatchVenueOptions,
  'apiKey' | 'environment' | 'handler' | 'fetch' | 'dispatcher'
>;

export interface MockVenue {
  /** The isolated simulator behind this mock venue. */
  readonly simulator: Simulator;
  /** Loopback server when created with `listen: true`. */
  readonly server: RunningSimulator | undefined;
  /** A MatchVenue bound to a seeded entity ('burner', 'minter', 'ineligible', 'noaccount'). */
  client(entity: SeededName, options?: MockClientOptions): MatchVenue;
  /** Lock -> clear -> settle the current auction now (`{ settle: false }` stops after the clear). */
  clearAuction(options?: { settle?: boolean }): ReturnType<Simulator['clearAuction']>;
  /** Moves simulated time forward (manual clock). */
  advance(ms: number): void;
  /** Replaces the injected faults (`{}` clears them). */
  setFaults(faults: Faults & { killSockets?: boolean }): void;
  /** Back to the seeded state. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * An isolated simulator plus clients for its seeded entities, for tests that want determinism:
 * nothing is shared with other mock venues or with `environment: 'mock'` clients.
 */
export async function createMockVenue(options: MockVenueOptions = {}): Promise<MockVenue> {
  const { listen, ...simOptions } = options;
  const simulator = createSimulator({ clock: 'manual', ...simOptions });
  const server = listen ? await simulator.listen() : undefined;
  const handle = (req: Request) => simulator.handle(req);
  return {
    simulator,
    server,
    client(entity, clientOptions = {}) {
      const seeded = SEEDED[entity];
      if (!seeded)
        throw new InvalidArgumentError(
          `Unknown seeded entity "${String(entity)}"; use burner, minter, ineligible or noaccount`,
        );
      return new MatchVenue({
        ...clientOptions,
        apiKey: seeded.apiKey,
        // Requests go to `handle` in-process; the URLs only name the simulator (and its socket when listening).
        ...(server ? { baseUrl: server.url, wsUrl: server.wsUrl } : {}),
        handler: handle,
      });
    },
    clearAuction: (clearOptions) => simulator.clearAuction(clearOptions),
    advance: (ms) => simulator.advance(ms),
    setFaults: (faults) => simulator.setFaults(faults),
    reset: () => simulator.reset(),
    close: () => simulator.close(),
  };
}
