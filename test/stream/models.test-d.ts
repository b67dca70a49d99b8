import { describe, expectTypeOf, it } from 'vitest';
import type * as models from '../../src/generated/models.js';
import type { WireAccountSummary } from '../../src/simulator/engine/account.js';
import type { OrderStatus, OrderType, PostFillAction } from '../../src/simulator/engine/types.js';
import type { WireOrder } from '../../src/simulator/engine/rest-shapes.js';
import type { AccountEvent, StreamAccountSummary, StreamOrder } from '../../src/stream/events.js';

describe('stream and simulator types taken from the generated models', () => {
  it('gives the stream the contract Order and AccountSummary, the types REST answers with', () => {
    expectTypeOf<StreamOrder>().toEqualTypeOf<models.Order>();
    expectTypeOf<StreamAccountSummary>().toEqualTypeOf<models.AccountSummary>();
    expectTypeOf<Extract<AccountEvent, { event: 'order.updated' }>['data']>().toEqualTypeOf<models.Order>();
    expectTypeOf<StreamOrder['status']>().toEqualTypeOf<models.OrderStatus>();
  });

  it('gives the engine the contract unions', () => {
    expectTypeOf<OrderStatus>().toEqualTypeOf<models.OrderStatus>();
    expectTypeOf<OrderType>().toEqualTypeOf<models.OrderType>();
    expectTypeOf<PostFillAction>().toEqualTypeOf<models.PostFillAction>();
  });

  it('has the simulator answer what the stream and REST read', () => {
    expectTypeOf<WireOrder>().toEqualTypeOf<StreamOrder>();
    expectTypeOf<WireAccountSummary>().toMatchTypeOf<StreamAccountSummary>();
    // Not the other way round: the contract keeps unknown fields the simulator never sends.
    expectTypeOf<StreamAccountSummary>().not.toEqualTypeOf<WireAccountSummary>();
  });
});
