import { describe, expectTypeOf, it } from 'vitest';
import type { OperationId } from '../../../src/generated/endpoints.js';
import type * as models from '../../../src/generated/models.js';
import type { VenueEngine } from '../../../src/simulator/engine/engine.js';
import type {
  EngineOperations,
  RequestOf,
  ResponseOf,
  VenueOperationId,
} from '../../../src/simulator/engine/venue-operations.js';
import type { TypedHandlers } from '../../../src/simulator/http/operations.js';
import type { VenuePort } from '../../../src/simulator/http/port.js';
import type { VenueRequest } from '../../../src/simulator/http/venue-routes.js';

type Handlers = TypedHandlers<VenueRequest, VenueOperationId>;
declare const handler: Handlers['getAccount'];

describe('the simulator plumbing typed from the endpoint table', () => {
  it('takes the venue operations from the table: the paths under /v1/match/, no platform one', () => {
    // Each of the spec's venue operations is one (a new one joins without editing this test).
    expectTypeOf<
      | 'getAccount'
      | 'listOrders'
      | 'placeOrder'
      | 'getOrder'
      | 'cancelOrder'
      | 'cancelAllOrders'
      | 'modifyOrder'
      | 'createWithdrawal'
      | 'createWsTicket'
    >().toMatchTypeOf<VenueOperationId>();
    expectTypeOf<'getConfiguration'>().toMatchTypeOf<OperationId>();
    expectTypeOf<
      'getConfiguration' | 'createV1Subscription' | 'deleteV1Subscription'
    >().not.toMatchTypeOf<VenueOperationId>();
    expectTypeOf<Extract<VenueOperationId, 'getConfiguration'>>().toBeNever();
  });

  it('types requests and answers by the generated models, not unknown', () => {
    expectTypeOf<ResponseOf<'getAccount'>>().toEqualTypeOf<models.AccountSummary>();
    expectTypeOf<ResponseOf<'getOrder'>>().toEqualTypeOf<models.Order>();
    expectTypeOf<ResponseOf<'listOrders'>>().toEqualTypeOf<models.OrderList>();
    expectTypeOf<ResponseOf<'createWsTicket'>>().toEqualTypeOf<models.WsTicket>();
    expectTypeOf<RequestOf<'cancelOrder'>>().toEqualTypeOf<models.CancelOrderRequest>();
    expectTypeOf<RequestOf<'listOrders'>>().toEqualTypeOf<models.ListOrdersQuery>();
    expectTypeOf<RequestOf<'getOrder'>>().toEqualTypeOf<Record<'id', string>>();
    expectTypeOf<VenuePort['getOrder']>().returns.toEqualTypeOf<models.Order>();
    expectTypeOf<VenuePort['createWsTicket']>().returns.toEqualTypeOf<Promise<models.WsTicket>>();
    expectTypeOf(handler).returns.not.toBeUnknown();
  });

  it('makes a missing route a compile error', () => {
    // @ts-expect-error: a venue operation of the table without its handler (createWsTicket) does not compile
    const missing: Handlers = {
      getAccount: ({ venue, entityId }) => venue.getAccount(entityId, undefined),
      listOrders: ({ venue, entityId }) => venue.listOrders(entityId, {}),
      placeOrder: () => ({ auctionId: 1, orderId: 'o', status: 'pending' }),
      getOrder: ({ venue, entityId }) => venue.getOrder(entityId, { id: 'o' }),
      cancelOrder: ({ venue, entityId }) => venue.cancelOrder(entityId, { auctionId: 1, orderId: 'o' }),
      cancelAllOrders: ({ venue, entityId }) => venue.cancelAllOrders(entityId, undefined),
      modifyOrder: ({ venue, entityId }) =>
        venue.modifyOrder(entityId, { auctionId: 1, orderId: 'o', feeBps: null }),
      createWithdrawal: ({ venue, entityId }) =>
        venue.createWithdrawal(entityId, {
          idempotencyKey: 'k',
          amount: { amount: '1.00', currency: 'USD' },
          fiatAccountId: 'f',
        }),
    };
    expectTypeOf(missing).toEqualTypeOf<Handlers>();
  });

  it('makes a handler answering another shape a compile error', () => {
    const wrong: Pick<Handlers, 'getAccount'> = {
      // @ts-expect-error: getAccount answers an AccountSummary, not an order list
      getAccount: ({ venue, entityId }) => venue.listOrders(entityId, {}),
    };
    expectTypeOf(wrong).toEqualTypeOf<Pick<Handlers, 'getAccount'>>();
  });

  it('makes a missing engine method a compile error', () => {
    expectTypeOf<VenueEngine>().toMatchTypeOf<EngineOperations>();
    type WithoutCancelAll = Omit<VenueEngine, 'cancelAllOrders'>;
    // @ts-expect-error: an engine without one operation of the table is not the EngineOperations the port needs
    const engine: EngineOperations = {} as WithoutCancelAll;
    expectTypeOf(engine).toEqualTypeOf<EngineOperations>();
  });
});
