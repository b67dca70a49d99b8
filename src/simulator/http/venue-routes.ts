import { isUuid } from '../../contract/ids.js';
import {
  CancelOrderRequest,
  CreateWithdrawalRequest,
  ListOrdersQuery,
  ModifyOrderRequest,
  PlaceOrderRequest,
} from '../../generated/schemas.js';
import type { ListQuery } from '../engine/orders.js';
import type { OrderStatus, OrderType } from '../engine/types.js';
import type { SimulatorCore } from '../simulator.js';
import { accountSeqOf } from '../ws/account-seq.js';
import { dataResponse, HttpError, invalidRequest, jsonResponse } from './responses.js';
import { firstMessage, issuesToDetails, readJsonObject, validate } from './validation.js';

export interface VenueRequest {
  req: Request;
  url: URL;
  entityId: string;
  params: Record<string, string>;
}

type VenueHandler = (sim: SimulatorCore, r: VenueRequest) => Promise<Response> | Response;

function body(req: Request): Promise<unknown> {
  return readJsonObject(req);
}

function listQuery(url: URL): ListQuery {
  const raw: Record<string, string | number> = {};
  for (const [k, v] of url.searchParams) {
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
  const q = validate(ListOrdersQuery, raw, 'query');
  const from = q.from === undefined ? undefined : Date.parse(q.from);
  const to = q.to === undefined ? undefined : Date.parse(q.to);
  if (from !== undefined && to !== undefined && from > to)
    throw invalidRequest('Invalid request: to must not be before from', [
      {
        error: 'invalid_range',
        message: 'must not be before from',
        location: 'to',
        invalidValue: String(q.to),
      },
    ]);
  return {
    page: q.page,
    pageSize: q.pageSize,
    status: q.status as OrderStatus | undefined,
    orderType: q.orderType as OrderType | undefined,
    orderId: q.orderId,
    from,
    to,
  };
}

export const venueRoutes: Record<string, Partial<Record<string, VenueHandler>>> = {
  '/v1/match/account': {
    GET: (sim, r) => {
      const summary = sim.engine.account(r.entityId);
      // The simulator's venue wallets are always sound; the fault lets clients exercise 139001.
      if (sim.faults.venueWalletInvalid) throw new HttpError(400, 139001, 'Venue wallet invalid');
      return dataResponse(200, summary);
    },
  },
  '/v1/match/orders': {
    POST: async (sim, r) => {
      const input = validate(PlaceOrderRequest, await body(r.req));
      return dataResponse(202, sim.engine.place(r.entityId, input));
    },
    GET: (sim, r) => {
      const list = sim.engine.listOrders(r.entityId, listQuery(r.url));
      // Read after the list, in the same tick: every account event up to this seq is in the list
      // (docs/PROTOCOL.md, resync), which lets a resyncing stream drop exactly those live events.
      const seq = accountSeqOf(sim, r.entityId);
      if (seq === undefined) return dataResponse(200, list);
      return jsonResponse(200, { data: list }, { 'x-account-seq': String(seq) });
    },
  },
  '/v1/match/orders/{id}': {
    GET: (sim, r) => {
      const id = r.params.id ?? '';
      if (!isUuid(id))
        throw invalidRequest(`Invalid request: id must be a UUID`, [
          { error: 'invalid_format', message: 'must be a UUID', location: 'id', invalidValue: id },
        ]);
      return dataResponse(200, sim.engine.getOrder(r.entityId, id));
    },
  },
  '/v1/match/orders/cancel': {
    POST: async (sim, r) => {
      const input = validate(CancelOrderRequest, await body(r.req));
      return dataResponse(200, sim.engine.cancel(r.entityId, input.auctionId, input.orderId));
    },
  },
  '/v1/match/orders/cancel-all': {
    POST: (sim, r) => dataResponse(200, sim.engine.cancelAll(r.entityId)),
  },
  '/v1/match/orders/modify': {
    POST: async (sim, r) => {
      const input = validate(ModifyOrderRequest, await body(r.req));
      return dataResponse(
        200,
        sim.engine.modify(r.entityId, input.auctionId, input.orderId, input.feeBps ?? null),
      );
    },
  },
  '/v1/match/withdrawals': {
    POST: async (sim, r) => {
      const raw = await body(r.req);
      const parsed = CreateWithdrawalRequest.safeParse(raw);
      if (!parsed.success) {
        const details = issuesToDetails(parsed.error.issues, raw, 'body');
        // A well-formed request whose only fault is the amount (not positive, not USD) is 138002.
        if (details.every((d) => d.location?.startsWith('amount.')))
          throw new HttpError(
            400,
            138002,
            `Withdrawal request invalid: ${details[0]?.location} ${details[0]?.message}`,
          );
        throw invalidRequest(firstMessage(details), details);
      }
      return dataResponse(201, sim.engine.withdraw(r.entityId, parsed.data));
    },
  },
  '/v1/match/ws/ticket': {
    POST: async (sim, r) => dataResponse(200, await sim.tickets.issue(r.entityId)),
  },
};
