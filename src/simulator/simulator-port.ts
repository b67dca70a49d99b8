/**
 * The HTTP binding's port (http/port.ts) as the composition root builds it: what the handlers see
 * of the simulator, never the engine itself. Apart from simulator.ts to keep that file readable.
 */
import { endpoints } from '../generated/endpoints.js';
import type { VenueEngine } from './engine/engine.js';
import { venueError } from './engine/errors.js';
import type { FaultState } from './engine/faults.js';
import { seededRandom } from './engine/ids.js';
import type { EngineOperationId, EngineOperations } from './engine/venue-operations.js';
import type { ControlPort, PlatformPort, SimulatorPort } from './http/port.js';
import { RateLimiter } from './http/rate-limit.js';
import type { Logger, SimulatorOptions } from './options.js';
import { accountSeqOf } from './ws/account-seq.js';
import { accountWritten } from './ws/fault-presets.js';
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

/** The engine's operations of the endpoint table (every venue operation but the ticket). */
const ENGINE_OPERATIONS = Object.values(endpoints)
  .filter((e) => e.path.startsWith('/v1/match/') && e.operationId !== 'createWsTicket')
  .map((e) => e.operationId as EngineOperationId);

/**
 * Each engine operation, called on the engine of the moment (a reset or restore replaces it): no
 * hand forwarding per operation, and `VenueEngine implements EngineOperations` makes a missing
 * engine method a compile error.
 */
function engineOperations(engine: () => VenueEngine): EngineOperations {
  const ops: Record<string, (entityId: string, input: never) => unknown> = {};
  for (const id of ENGINE_OPERATIONS) {
    ops[id] = (entityId, input) => {
      const current = engine();
      return (current[id] as (entityId: string, input: unknown) => unknown).call(current, entityId, input);
    };
  }
  return ops as EngineOperations;
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
      ...engineOperations(engine),
      getAccount: (entityId) => {
        const summary = engine().getAccount(entityId);
        // The simulator's venue wallets are always sound; the fault lets clients exercise 139001.
        if (faults.current.venueWalletInvalid) throw venueError.VenueWalletInvalid();
        return summary;
      },
      createWsTicket: (entityId) => faults.ticket(() => sim.tickets.issue(entityId)),
      assertEligible: (entityId) => engine().assertEligible(entityId),
      accountSeq: (entityId) => accountSeqOf(sim, entityId),
      ackHold: (entityId) => (faults.has('ack-after-event') ? accountWritten(sim, entityId) : undefined),
    },
    platform: sim.platform,
    control: parts.control,
    afterRequest: parts.afterRequest,
  };
}
