/** The venue routes, keyed by the contract's operation ids (method, path, status: src/generated/endpoints.ts). */
import { isUuid } from '../../contract/ids.js';
import { endpoints } from '../../generated/endpoints.js';
import type { PlaceOrderRequest } from '../../generated/models.js';
import { type Check, runCheck } from '../../validation/index.js';
import type { RequestOf, VenueOperationId } from '../engine/venue-operations.js';
import type { BodySource } from './body.js';
import { andThen, type MaybeAsync } from './maybe-async.js';
import { Reply, routesByOperation, type TypedHandlers } from './operations.js';
import type { VenuePort } from './port.js';
import { HttpError, invalidRequest } from './responses.js';
import { issuesToDetails, readJsonObject, refusal, validate } from './validation.js';

export interface VenueRequest {
  venue: VenuePort;
  req: BodySource;
  /** The query string, `?` included ('' without one). */
  search: string;
  entityId: string;
  params: Record<string, string>;
}

/**
 * The request body of `operation`, checked by the endpoint table's generated check for it, the one
 * the client runs before sending (400 code 2 naming every failing field). Synchronous over node:http
 * (the body is read before dispatch), so the routes taking a body are not async (maybe-async.ts).
 */
function body<K extends VenueOperationId>(operation: K, req: BodySource): MaybeAsync<RequestOf<K>> {
  return andThen(readJsonObject(req), (raw) =>
    validate(endpoints[operation].body as Check<RequestOf<K>>, raw),
  );
}

/** The query of GET /v1/match/orders, checked by the table's generated check for it. */
function listQuery(search: string): RequestOf<'listOrders'> {
  // The query's integers arrive as text: the generated check reads plain decimal digits only
  // ('0x10', '1e2' or '' stay text and fail as "must be an integer"), as the client's does.
  const raw = Object.fromEntries(new URLSearchParams(search));
  // The check holds every rule of the query, `from` not after `to` included.
  return validate(endpoints.listOrders.query, raw, 'query');
}

/**
 * placeOrder's body. The venue's currency rule (OrderAmount.currency is USD in the OpenAPI) is
 * refused by the engine after its eligibility check, on purpose (137010 comes first): a body whose
 * only fault is its currency goes on to the engine, which refuses it with the same field, message
 * and 400 code 2 as this check would.
 */
function placeOrderBody(req: BodySource): MaybeAsync<PlaceOrderRequest> {
  return andThen(readJsonObject(req), checkPlaceOrder);
}

function checkPlaceOrder(raw: Record<string, unknown>): PlaceOrderRequest {
  const parsed = runCheck(endpoints.placeOrder.body, raw);
  if (parsed.ok) return parsed.value;
  // Only a currency that is text goes on: the engine names it in its answer.
  const currency = (raw.amount as { currency?: unknown } | undefined)?.currency;
  const currencyOnly =
    typeof currency === 'string' &&
    parsed.issues.every(
      (issue) => issue.code === 'invalid_value' && issue.path.join('.') === 'amount.currency',
    );
  if (currencyOnly) return raw as unknown as PlaceOrderRequest;
  throw refusal(issuesToDetails(parsed.issues, raw, 'body'));
}

/** A withdrawal whose only fault is its amount (not positive, not USD) is 138002, not code 2. */
function withdrawalBody(req: BodySource) {
  return andThen(readJsonObject(req), checkWithdrawal);
}

function checkWithdrawal(raw: Record<string, unknown>) {
  const parsed = runCheck(endpoints.createWithdrawal.body, raw);
  if (parsed.ok) return parsed.value;
  const details = issuesToDetails(parsed.issues, raw, 'body');
  if (details.every((d) => d.location?.startsWith('amount.')))
    throw new HttpError(
      400,
      138002,
      `Withdrawal request invalid: ${details[0]?.location} ${details[0]?.message}`,
    );
  throw refusal(details);
}

// Handler order per path is the order `Allow` lists the methods in. One handler per venue
// operation of the endpoint table: a missing one does not compile (TypedHandlers).
const venueOperations: TypedHandlers<VenueRequest, VenueOperationId> = {
  getAccount: ({ venue, entityId }) => venue.getAccount(entityId, undefined),
  placeOrder: ({ venue, entityId, req }) =>
    andThen(placeOrderBody(req), (input) => {
      const placed = venue.placeOrder(entityId, input);
      return andThen(venue.ackHold(entityId), () => placed);
    }),
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
  cancelOrder: ({ venue, entityId, req }) =>
    andThen(body('cancelOrder', req), (input) => venue.cancelOrder(entityId, input)),
  cancelAllOrders: ({ venue, entityId }) => venue.cancelAllOrders(entityId, undefined),
  modifyOrder: ({ venue, entityId, req }) =>
    andThen(body('modifyOrder', req), (input) => venue.modifyOrder(entityId, input)),
  createWithdrawal: ({ venue, entityId, req }) =>
    andThen(withdrawalBody(req), (input) => venue.createWithdrawal(entityId, input)),
  createWsTicket: ({ venue, entityId }) => venue.createWsTicket(entityId, undefined),
};

export const venueRoutes = routesByOperation(venueOperations);
