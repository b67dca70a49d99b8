/** The venue routes, keyed by the contract's operation ids (method, path, status: src/generated/endpoints.ts). */
import type { z } from 'zod';
import { isUuid } from '../../contract/ids.js';
import { endpoints } from '../../generated/endpoints.js';
import type { RequestOf, VenueOperationId } from '../engine/venue-operations.js';
import type { BodySource } from './body.js';
import { Reply, routesByOperation, type TypedHandlers } from './operations.js';
import type { VenuePort } from './port.js';
import { HttpError, invalidRequest } from './responses.js';
import { firstMessage, issuesToDetails, readJsonObject, validate } from './validation.js';

export interface VenueRequest {
  venue: VenuePort;
  req: BodySource;
  /** The query string, `?` included ('' without one). */
  search: string;
  entityId: string;
  params: Record<string, string>;
}

/**
 * The request body of `operation`, checked by the endpoint table's rules for it (400 code 2 naming
 * every failing field): one call per operation, whatever does the checking.
 */
async function body<K extends VenueOperationId>(operation: K, req: BodySource): Promise<RequestOf<K>> {
  return validate(endpoints[operation].body as z.ZodType, await readJsonObject(req)) as RequestOf<K>;
}

/** The query of GET /v1/match/orders, checked by the table's rules for it. */
function listQuery(search: string): RequestOf<'listOrders'> {
  const raw: Record<string, string | number> = {};
  for (const [k, v] of new URLSearchParams(search)) {
    if (k !== 'page' && k !== 'pageSize') {
      raw[k] = v;
      continue;
    }
    // Plain decimal digits only: the schema's coercion would otherwise read '0x10', '1e2' or ''.
    if (!/^-?\d+$/.test(v))
      throw invalidRequest(`Invalid request: ${k} must be an integer`, [
        { error: 'invalid_type', message: 'must be an integer', location: k, invalidValue: v },
      ]);
    raw[k] = Number(v);
  }
  // The schema holds every rule of the query, `from` not after `to` included.
  return validate(endpoints.listOrders.query, raw, 'query');
}

/** A withdrawal whose only fault is its amount (not positive, not USD) is 138002, not code 2. */
async function withdrawalBody(req: BodySource) {
  const raw = await readJsonObject(req);
  const parsed = endpoints.createWithdrawal.body.safeParse(raw);
  if (parsed.success) return parsed.data;
  const details = issuesToDetails(parsed.error.issues, raw, 'body');
  if (details.every((d) => d.location?.startsWith('amount.')))
    throw new HttpError(
      400,
      138002,
      `Withdrawal request invalid: ${details[0]?.location} ${details[0]?.message}`,
    );
  throw invalidRequest(firstMessage(details), details);
}

// Handler order per path is the order `Allow` lists the methods in. One handler per venue
// operation of the endpoint table: a missing one does not compile (TypedHandlers).
const venueOperations: TypedHandlers<VenueRequest, VenueOperationId> = {
  getAccount: ({ venue, entityId }) => venue.getAccount(entityId, undefined),
  placeOrder: async ({ venue, entityId, req }) => venue.placeOrder(entityId, await body('placeOrder', req)),
  listOrders: ({ venue, entityId, search }) => {
    const list = venue.listOrders(entityId, listQuery(search));
    // Read after the list, in the same tick: every account event up to this seq is in the list
    // (docs/PROTOCOL.md, resync), which lets a resyncing stream drop exactly those live events.
    const seq = venue.accountSeq(entityId);
    return seq === undefined ? list : new Reply(list, { 'x-account-seq': String(seq) });
  },
  getOrder: ({ venue, entityId, params }) => {
    const id = params.id ?? '';
    if (!isUuid(id))
      throw invalidRequest(`Invalid request: id must be a UUID`, [
        { error: 'invalid_format', message: 'must be a UUID', location: 'id', invalidValue: id },
      ]);
    return venue.getOrder(entityId, { id });
  },
  cancelOrder: async ({ venue, entityId, req }) =>
    venue.cancelOrder(entityId, await body('cancelOrder', req)),
  cancelAllOrders: ({ venue, entityId }) => venue.cancelAllOrders(entityId, undefined),
  modifyOrder: async ({ venue, entityId, req }) =>
    venue.modifyOrder(entityId, await body('modifyOrder', req)),
  createWithdrawal: async ({ venue, entityId, req }) =>
    venue.createWithdrawal(entityId, await withdrawalBody(req)),
  createWsTicket: ({ venue, entityId }) => venue.createWsTicket(entityId, undefined),
};

export const venueRoutes = routesByOperation(venueOperations);
