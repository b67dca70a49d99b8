import { type AccountNumbers, toWireAccount } from './account.js';
import { toWireAuction, toWireLastClear, toWireOrder } from './rest-shapes.js';
import type { EngineContext } from './state.js';
import type { Auction, Order, OrderStatus, SimulatorAccountEvent } from './types.js';

/**
 * Events are built only when someone reads them (`ctx.wants`): with no listener, a 1,000,000-order
 * clear would otherwise build and drop 2,000,000 wire orders.
 */
export function emitMarket(ctx: EngineContext, event: string, auction: Auction): void {
  if (!ctx.wants()) return;
  const { state } = ctx;
  const last =
    state.lastClearedAuctionId === null ? undefined : state.auctions.get(state.lastClearedAuctionId);
  ctx.emit({
    channel: 'market',
    event,
    data: { ...toWireAuction(auction), lastClear: toWireLastClear(last) },
  });
}

/** `order.accepted` / `order.updated`: data is the Order as REST shows it at this moment. */
export function emitOrder(ctx: EngineContext, event: string, order: Order): void {
  if (ctx.wants(order.entityId)) ctx.emit(new OrderEvent(event, order));
}

/** `balance.updated`: data is the AccountSummary as of this moment. */
export function balanceEvent(entityId: string, numbers: AccountNumbers): SimulatorAccountEvent {
  return new BalanceEvent(entityId, numbers);
}

/**
 * An account event whose `data` is built on its first read, from what the event kept: a consumer
 * that keeps only the last events (the WebSocket replay buffer keeps 1,024 per sequence) pays for
 * those alone, and one object per event is all the others cost. The first read turns `data` into
 * an own enumerable property, so a read event spreads, compares and serialises like a plain
 * object; `toJSON` serialises an unread one whole.
 */
abstract class LazyAccountEvent implements SimulatorAccountEvent {
  readonly channel = 'account' as const;

  constructor(
    readonly entityId: string,
    readonly event: string,
  ) {}

  protected abstract build(): unknown;

  get data(): unknown {
    const data = this.build();
    Object.defineProperty(this, 'data', {
      value: data,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return data;
  }

  toJSON() {
    return { channel: this.channel, entityId: this.entityId, event: this.event, data: this.data };
  }
}

/**
 * Keeps the fields of the order that change later (status, time, lineage, fee, fill), in private
 * fields: the event's own properties stay channel, entityId, event (and data once read).
 */
class OrderEvent extends LazyAccountEvent {
  readonly #order: Order;
  readonly #status: OrderStatus;
  readonly #updatedAt: number;
  readonly #childOrderId: string | null;
  readonly #feeBps: string | null;
  readonly #clearedIn: Auction | null;

  constructor(event: string, order: Order) {
    super(order.entityId, event);
    this.#order = order;
    this.#status = order.status;
    this.#updatedAt = order.updatedAt;
    this.#childOrderId = order.childOrderId;
    this.#feeBps = order.feeBps;
    this.#clearedIn = order.clearedIn;
  }

  protected build() {
    return toWireOrder(this.#order, {
      status: this.#status,
      updatedAt: this.#updatedAt,
      childOrderId: this.#childOrderId,
      feeBps: this.#feeBps,
      clearedIn: this.#clearedIn,
    });
  }
}

class BalanceEvent extends LazyAccountEvent {
  readonly #numbers: AccountNumbers;

  constructor(entityId: string, numbers: AccountNumbers) {
    super(entityId, 'balance.updated');
    this.#numbers = numbers;
  }

  protected build() {
    return toWireAccount(this.#numbers);
  }
}
