import { InvalidArgumentError, MatchVenue, type Money, type Stream } from 'match-venue';
import {
  createSimulator,
  type FaultSettings,
  type RunningSimulator,
  SEEDED,
  type SeededName,
  type Simulator,
  type SimulatorOptions,
} from '../simulator/index.js';
import { closedError, HANDLER_WS_URL, type MockClientOptions, trackStreams } from './venue-streams.js';

export type { MockClientOptions } from './venue-streams.js';
import { createReplayVenue, type ReplayVenue, type ReplayVenueOptions } from './replay-venue.js';

/** Options of {@link createMockVenue}: the simulator's, plus `listen`. */
export interface MockVenueOptions extends SimulatorOptions {
  /** 'manual' (default): time moves only when told; 'real': auctions cycle on their own. */
  clock?: 'manual' | 'real';
  /**
   * Also serve the simulator on a loopback port (HTTP + WebSocket) from the start, so that other
   * processes can reach it. Default false: clients call the simulator in-process. Not needed to
   * stream: a client's `stream.connect()` starts a loopback listener on first use either way.
   */
  listen?: boolean;
  /** Not with the simulator's options: `createMockVenue({ cassette })` replays instead. */
  cassette?: never;
}

/** An isolated simulator with clients for its seeded entities; see {@link createMockVenue}. */
export interface MockVenue {
  /** The isolated simulator behind this mock venue. */
  readonly simulator: Simulator;
  /**
   * The loopback server: from the start with `listen: true`, else once a client first streams
   * (undefined until then). `close()` shuts it.
   */
  readonly server: RunningSimulator | undefined;
  /** A MatchVenue bound to a seeded entity ('burner', 'minter', 'ineligible', 'noaccount'). */
  client(entity: SeededName, options?: MockClientOptions): MatchVenue;
  /** Lock -> clear -> settle the current auction now (`{ settle: false }` stops after the clear). */
  clearAuction(options?: { settle?: boolean }): ReturnType<Simulator['clearAuction']>;
  /** Moves simulated time forward (manual clock). */
  advance(ms: number): void;
  /**
   * Lands a settled USD wire from the entity's bank on its venue-only balance, which MINT orders
   * draw on (`mock.wire('minter', usd('5000'))`); the simulator's `wire()` / `POST /_sim/wires`.
   */
  wire(entity: SeededName, amount: Money): ReturnType<Simulator['wire']>;
  /** Replaces the injected faults (`{}` clears them). */
  setFaults(faults: FaultSettings): void;
  /** Back to the seeded state. */
  reset(): void;
  /**
   * Ends every stream its clients opened (their iterators finish), then shuts the loopback server
   * if one started and the simulator's timers: nothing of the mock venue is left running.
   */
  close(): Promise<void>;
}

/**
 * An isolated simulator plus clients for its seeded entities, for tests that want determinism:
 * nothing is shared with other mock venues or with `environment: 'mock'` clients. A manual clock
 * by default: auctions clear when the test says so. Throws a RangeError naming a simulator option
 * it cannot use; streaming from a closed mock venue throws ConfigurationError (kind
 * `MV_INVALID_CONFIG`).
 *
 * @example
 * ```ts
 * import { usd } from 'match-venue';
 * import { SEEDED } from 'match-venue/simulator';
 * import { createMockVenue } from 'match-venue/testing';
 *
 * const mock = await createMockVenue();
 * const burner = mock.client('burner');
 * const { orderId } = await burner.orders.place({
 *   orderType: 'BURN',
 *   amount: usd('1000'),
 *   postFillAction: 'cancel',
 *   sourceWalletId: SEEDED.burner.walletId,
 *   fiatAccountId: SEEDED.burner.fiatAccountId,
 * });
 * mock.clearAuction();
 * console.log((await burner.orders.retrieve(orderId)).status);
 * await mock.close();
 * ```
 */
export function createMockVenue(options?: MockVenueOptions): Promise<MockVenue>;
/**
 * A replay of a recorded cassette instead of a simulator: clients answered from it, offline and
 * deterministically (see {@link ReplayVenue}). No simulator controls: time and auctions are as
 * recorded.
 *
 * @example
 * ```ts
 * const replay = await createMockVenue({ cassette: 'bot.cassette.ndjson' });
 * const burner = replay.client('burner');
 * console.log((await burner.orders.list()).items.length);
 * await replay.close();
 * ```
 */
export function createMockVenue(options: ReplayVenueOptions): Promise<ReplayVenue>;
export function createMockVenue(
  options: MockVenueOptions | ReplayVenueOptions = {},
): Promise<MockVenue | ReplayVenue> {
  if (options.cassette !== undefined) return createReplayVenue(options as ReplayVenueOptions);
  return createSimulatorVenue(options as MockVenueOptions);
}

async function createSimulatorVenue(options: MockVenueOptions): Promise<MockVenue> {
  const { listen, cassette: _none, ...simOptions } = options;
  const simulator = createSimulator({ clock: 'manual', ...simOptions });
  let server = listen ? await simulator.listen() : undefined;
  let starting = server && Promise.resolve(server);
  let closed = false;
  const streams = new Set<Stream.VenueStream>();
  // As in mock mode, the socket exists only once a stream asks: the first connect starts a loopback
  // listener (unref'd, so it never keeps a process alive), one of the simulator's servers that
  // close() shuts.
  const wsUrl = async (): Promise<string> => {
    if (closed) throw closedError();
    starting ??= simulator.listen({ host: '127.0.0.1', port: 0 }).then(
      (running) => {
        running.server.unref();
        server = running;
        return running;
      },
      (error: unknown) => {
        // Not remembered: the stream's next reconnect attempt tries again.
        starting = undefined;
        throw error;
      },
    );
    return (await starting).wsUrl;
  };
  const handle = Object.assign((req: Request) => simulator.handle(req), { [HANDLER_WS_URL]: wsUrl });
  return {
    simulator,
    get server() {
      return server;
    },
    client(entity, clientOptions = {}) {
      const seeded = SEEDED[entity];
      if (!seeded)
        throw new InvalidArgumentError(
          `Unknown seeded entity "${String(entity)}"; use burner, minter, ineligible or noaccount`,
        );
      const venue = new MatchVenue({
        ...clientOptions,
        apiKey: seeded.apiKey,
        // Requests go to `handle` in-process; the URLs only name the simulator (and its socket when
        // listening from the start); otherwise `handle` tells the client where to stream.
        ...(listen && server ? { baseUrl: server.url, wsUrl: server.wsUrl } : {}),
        handler: handle,
      });
      trackStreams(venue, streams, () => closed);
      return venue;
    },
    clearAuction: (clearOptions) => simulator.clearAuction(clearOptions),
    advance: (ms) => simulator.advance(ms),
    wire: (entity, amount) => {
      const seeded = SEEDED[entity];
      if (!seeded) throw new InvalidArgumentError(`Unknown seeded entity "${String(entity)}"`);
      return simulator.wire({ entityId: seeded.entityId, amount });
    },
    setFaults: (faults) => simulator.setFaults(faults),
    reset: () => simulator.reset(),
    async close() {
      closed = true;
      await Promise.all([...streams].map((stream) => stream.close()));
      // A listener still starting becomes one of the simulator's servers: let it, so close shuts it.
      await starting?.catch(() => undefined);
      await simulator.close();
    },
  };
}
