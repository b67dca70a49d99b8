/** The market sandbox's `/_sim/` routes: clearing reports (docs/MARKET.md). */
import type { ControlPort } from './port.js';
import { dataResponse, HttpError, invalidRequest } from './responses.js';
import type { RouteTable } from './router.js';

/** A `/_sim/` route: the control port, the request and the path's `{name}` segments. */
export type ControlHandler = (
  sim: ControlPort,
  req: Request,
  params: Record<string, string>,
) => Promise<Response> | Response;

const AUCTION_ID = /^[1-9]\d{0,14}$/;

/** Keyed by path like the other control routes; `current` is exact, so it wins over `{auctionId}`. */
export const marketRoutes: RouteTable<ControlHandler> = {
  '/_sim/auctions/current': {
    GET: (sim) => dataResponse(200, sim.currentAuctionReport()),
  },
  '/_sim/auctions/{auctionId}': {
    GET: (sim, _req, params) => {
      const raw = params.auctionId ?? '';
      if (!AUCTION_ID.test(raw))
        throw invalidRequest('Invalid request: auctionId must be a positive integer', [
          {
            error: 'invalid_value',
            message: 'must be a positive integer',
            location: 'auctionId',
            invalidValue: raw,
          },
        ]);
      const report = sim.auctionReport(Number(raw));
      if (report === undefined)
        throw new HttpError(404, -1, `Auction ${raw} has not cleared (unknown, still open, or skipped idle)`);
      return dataResponse(200, report);
    },
  },
};
