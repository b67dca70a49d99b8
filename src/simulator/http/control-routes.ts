import { z } from 'zod';
import { FaultsBody } from '../engine/faults.js';
import { assertNoBody } from './body.js';
import { dashboardDataRoutes } from './dashboard-routes.js';
import { visibleState } from './key-visibility.js';
import { type ControlHandler, marketRoutes } from './market-routes.js';
import type { MaybeAsync } from './maybe-async.js';
import type { ControlPort } from './port.js';
import { dataResponse } from './responses.js';
import type { RouteTable } from './router.js';
import { assertNoParams, readJsonObject, validateConfig } from './validation.js';

/** Control bodies are optional where every field is; an empty body means `{}`. */
function optionalBody(req: Request): MaybeAsync<unknown> {
  return readJsonObject(req, true);
}

const ClearBody = z.object({ settle: z.boolean().optional() });
// A jump costs what its book needs, not its length (engine/clock.ts skips or holds auctions in
// which nothing can trade; with a market it runs in slices: clock-jump.ts); the bound still caps
// what one request can do to the clock.
const AdvanceBody = z.object({
  ms: z
    .number()
    .int('must be an integer')
    .min(0, 'must not be negative')
    .max(604_800_000, 'must be at most 7 days'),
});
const PhaseBody = z.object({ phase: z.enum(['open', 'lock']) });
// Shape only: the amount's rules (positive, 2 decimals, USD, within the bank) are the engine's.
const WireBody = z
  .object({
    entityId: z.string().min(1).max(100),
    amount: z.object({ amount: z.string().max(64), currency: z.string().max(16) }).strict(),
  })
  .strict();

/** A control read (GET) refuses a body, as the contract's operations do (400 code 2). */
function noBody(handler: (sim: ControlPort, req: Request) => Response): ControlHandler {
  return async (sim, req) => {
    await assertNoBody(req);
    return handler(sim, req);
  };
}

/** A control action without parameters: no body or `{}` (validation.ts, assertNoParams). */
function noParams(handler: (sim: ControlPort, req: Request) => Response): ControlHandler {
  return async (sim, req) => {
    await assertNoParams(req);
    return handler(sim, req);
  };
}

/** Simulator-only routes: not in the contract, so keyed by path. */
export const controlRoutes: RouteTable<ControlHandler> = {
  ...marketRoutes,
  ...dashboardDataRoutes,
  '/_sim/auctions/clear': {
    POST: async (sim, req) => {
      const b = validateConfig(ClearBody, await optionalBody(req));
      return dataResponse(200, sim.clearAuction(b));
    },
  },
  '/_sim/auctions/settle': {
    POST: noParams((sim) => dataResponse(200, sim.settleAuction())),
  },
  '/_sim/clock/advance': {
    POST: async (sim, req) => {
      const b = validateConfig(AdvanceBody, await optionalBody(req));
      await sim.advanceAsync(b.ms);
      return dataResponse(200, { now: new Date(sim.now()).toISOString() });
    },
  },
  '/_sim/phase': {
    POST: async (sim, req) => {
      const b = validateConfig(PhaseBody, await optionalBody(req));
      return dataResponse(200, sim.setPhase(b.phase));
    },
  },
  '/_sim/wires': {
    POST: async (sim, req) => {
      const b = validateConfig(WireBody, await readJsonObject(req));
      return dataResponse(200, sim.wire(b));
    },
  },
  '/_sim/state': {
    GET: noBody((sim, req) => dataResponse(200, visibleState(sim.getState(), req))),
  },
  '/_sim/reset': {
    POST: noParams((sim, req) => {
      sim.reset();
      return dataResponse(200, visibleState(sim.getState(), req));
    }),
  },
  '/_sim/faults': {
    POST: async (sim, req) => {
      const b = validateConfig(FaultsBody, await optionalBody(req));
      sim.setFaults(b);
      return dataResponse(200, sim.faults);
    },
    GET: noBody((sim) => dataResponse(200, sim.faults)),
  },
};
