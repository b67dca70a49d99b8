/** The market sandbox's `/_sim/` routes: clearing reports, snapshots (docs/MARKET.md). */
import { SnapshotError } from '../snapshot/document.js';
import { visibleSnapshot, visibleState } from './key-visibility.js';
import type { ControlPort } from './port.js';
import { dataResponse, HttpError, invalidRequest, jsonResponse } from './responses.js';
import type { RouteTable } from './router.js';
import { assertNoParams, readJsonObject } from './validation.js';

/** A `/_sim/` route: the control port, the request and the path's `{name}` segments. */
export type ControlHandler = (
  sim: ControlPort,
  req: Request,
  params: Record<string, string>,
) => Promise<Response> | Response;

const AUCTION_ID = /^[1-9]\d{0,14}$/;

/**
 * `POST /_sim/restore`: the one route whose body may pass MAX_BODY_BYTES, up to the restore limit
 * (resolve-route.ts, bodyLimitOf, keys node:http's read on it).
 */
export const restoreSnapshot: ControlHandler = async (sim, req) => {
  const doc = await readJsonObject(req, false, sim.restoreLimitBytes);
  try {
    sim.restore(doc);
  } catch (err) {
    if (!(err instanceof SnapshotError)) throw err;
    throw invalidRequest(`Invalid request: ${err.message.slice(0, 500)}`, [
      { error: 'invalid_snapshot', message: err.message.slice(0, 500), location: err.path || 'body' },
    ]);
  }
  return dataResponse(200, visibleState(sim.getState(), req));
};

/** Keyed by path like the other control routes; `current` is exact, so it wins over `{auctionId}`. */
export const marketRoutes: RouteTable<ControlHandler> = {
  // The document itself, not under `data`: it is posted back to /_sim/restore as it came.
  '/_sim/snapshot': {
    POST: async (sim, req) => {
      await assertNoParams(req);
      return jsonResponse(200, visibleSnapshot(sim.snapshot(), req));
    },
  },
  '/_sim/log': {
    GET: (sim) => {
      const log = sim.eventLog();
      if (!log)
        throw new HttpError(
          409,
          -1,
          'The event log is off: start match-venue-sim with --event-log [lines], or create the simulator ' +
            'with eventLog (true, a number of lines or {lines, bytes}) to record it',
        );
      return new Response(log.ndjson, {
        status: 200,
        headers: { 'content-type': 'application/x-ndjson', 'x-sim-log-dropped': String(log.dropped) },
      });
    },
  },
  '/_sim/restore': { POST: restoreSnapshot },
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
