/**
 * The HTTP binding's port (http/port.ts) as the composition root builds it: what the handlers see
 * of the simulator, never the engine itself. Apart from simulator.ts to keep that file readable.
 */
import type { VenueEngine } from './engine/engine.js';
import { venueError } from './engine/errors.js';
import { seededRandom } from './engine/ids.js';
import type { FaultState } from './faults.js';
import type { ControlPort, PlatformPort, SimulatorPort } from './http/port.js';
import { RateLimiter } from './http/rate-limit.js';
import type { Logger, SimulatorOptions } from './options.js';
import { accountSeqOf } from './ws/account-seq.js';
import type { TicketIssuer } from './ws/tickets.js';

/** What of the simulator the port reads (structural, so this module needs no import of it). */
export interface PortHost {
  readonly logger: Logger;
  readonly engine: VenueEngine;
  readonly tickets: TicketIssuer;
  readonly platform: PlatformPort;
  entityForApiKey(apiKey: string): { entityId: string } | undefined;
}

export interface PortParts {
  options: SimulatorOptions;
  faults: FaultState;
  control: ControlPort;
  afterRequest(): void;
}

export function simulatorPort(sim: PortHost, parts: PortParts): SimulatorPort {
  const { options, faults } = parts;
  const rateLimiter = options.rateLimit ? new RateLimiter(options.rateLimit) : undefined;
  const random = seededRandom((options.seed ?? 1) ^ 0x5bd1e995);
  // The engine is replaced on reset (and restore): always the current one.
  const engine = () => sim.engine;
  return {
    logger: sim.logger,
    admission: {
      entityForApiKey: (apiKey) => sim.entityForApiKey(apiKey),
      // Wall clock: Retry-After is what a client really sleeps, and a manual clock never moves
      // while it does, so a window on simulated time would stay shut.
      throttle: (apiKey) => rateLimiter?.take(apiKey, Date.now()) ?? 0,
      get faults() {
        return faults.current;
      },
      random,
      takeDrop: () => faults.takeDrop(),
    },
    venue: {
      assertEligible: (entityId) => engine().assertEligible(entityId),
      account: (entityId) => {
        const summary = engine().account(entityId);
        // The simulator's venue wallets are always sound; the fault lets clients exercise 139001.
        if (faults.current.venueWalletInvalid) throw venueError.venueWalletInvalid();
        return summary;
      },
      place: (entityId, input) => engine().place(entityId, input),
      listOrders: (entityId, query) => engine().listOrders(entityId, query),
      getOrder: (entityId, orderId) => engine().getOrder(entityId, orderId),
      cancel: (entityId, auctionId, orderId) => engine().cancel(entityId, auctionId, orderId),
      cancelAll: (entityId) => engine().cancelAll(entityId),
      modify: (entityId, auctionId, orderId, feeBps) => engine().modify(entityId, auctionId, orderId, feeBps),
      withdraw: (entityId, input) => engine().withdraw(entityId, input),
      issueTicket: (entityId) => sim.tickets.issue(entityId),
      accountSeq: (entityId) => accountSeqOf(sim, entityId),
    },
    platform: sim.platform,
    control: parts.control,
    afterRequest: parts.afterRequest,
  };
}
