/**
 * The `/_sim/` reads the dashboard needs beside `/_sim/state` and the clearing reports: every
 * entity's orders in one table, and the recent clears. Plain control routes (any client may call
 * them), answered from the engine's state like the rest of the control plane.
 */
import { z } from 'zod';
import { assertNoBody } from './body.js';
import type { ControlHandler } from './market-routes.js';
import { dataResponse } from './responses.js';
import type { RouteTable } from './router.js';
import { validateConfig } from './validation.js';

const Limit = z.coerce
  .number()
  .int('must be an integer')
  .min(1, 'must be at least 1')
  .max(1000, 'must be at most 1000');

const OrdersQuery = z
  .object({
    entityId: z.string().min(1).max(100).optional(),
    side: z.enum(['BURN', 'MINT']).optional(),
    status: z
      .enum(['pending', 'settling', 'filled', 'partial_fill', 'unfilled', 'cancelled', 'failed'])
      .optional(),
    limit: Limit.default(200),
  })
  .strict();
const AuctionsQuery = z.object({ limit: Limit.default(50) }).strict();

const queryOf = (req: Request): Record<string, string> => Object.fromEntries(new URL(req.url).searchParams);

export const dashboardDataRoutes: RouteTable<ControlHandler> = {
  '/_sim/orders': {
    GET: async (sim, req) => {
      await assertNoBody(req);
      const q = validateConfig(OrdersQuery, queryOf(req), 'query');
      return dataResponse(200, sim.allOrders(q));
    },
  },
  '/_sim/auctions': {
    GET: async (sim, req) => {
      await assertNoBody(req);
      return dataResponse(
        200,
        sim.clearedAuctions(validateConfig(AuctionsQuery, queryOf(req), 'query').limit),
      );
    },
  },
};
