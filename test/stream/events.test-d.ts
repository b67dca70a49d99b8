import { describe, expectTypeOf, it } from 'vitest';
import {
  type AccountEvent,
  type AuctionEventData,
  isEvent,
  isKnownEvent,
  type LastClear,
  type MarketEvent,
  type MarketSnapshot,
  type StreamOrder,
  type VenueStream,
} from '../../src/stream/index.js';

declare const market: MarketEvent;
declare const account: AccountEvent;
declare const stream: VenueStream;

describe('stream event types', () => {
  it('isEvent narrows data by event name', () => {
    if (isEvent(market, 'auction.cleared')) {
      expectTypeOf(market.data).toEqualTypeOf<AuctionEventData>();
      expectTypeOf(market.data.lastClear).toEqualTypeOf<LastClear | null>();
    }
    if (isEvent(market, 'auction.snapshot')) {
      expectTypeOf(market.data).toEqualTypeOf<MarketSnapshot>();
      expectTypeOf(market.data.lastClear).toEqualTypeOf<LastClear | null>();
      expectTypeOf(market.data.lastClear?.matchedVolume).toEqualTypeOf<
        { amount: string; currency: string } | undefined
      >();
    }
    if (isEvent(account, 'order.updated')) {
      expectTypeOf(account.data).toEqualTypeOf<StreamOrder>();
      expectTypeOf(account.source).toEqualTypeOf<'rest' | undefined>();
    }
    if (isEvent(account, 'stream.resync'))
      expectTypeOf(account.data.reason).toEqualTypeOf<'replay-unavailable' | 'gap' | 'undecodable'>();
  });

  it('after isKnownEvent, a switch on the event name narrows data per case', () => {
    if (!isKnownEvent(account)) {
      expectTypeOf(account.data).toEqualTypeOf<unknown>();
      return;
    }
    switch (account.event) {
      case 'order.accepted':
      case 'order.updated':
        expectTypeOf(account.data).toEqualTypeOf<StreamOrder>();
        expectTypeOf(account.data.status).toEqualTypeOf<StreamOrder['status']>();
        break;
      case 'balance.updated':
        expectTypeOf(account.data.stablecoin.available.amount).toEqualTypeOf<string>();
        break;
      case 'withdrawal.updated':
        expectTypeOf(account.data.status).toEqualTypeOf<string>();
        break;
      case 'stream.resync':
        expectTypeOf(account.data.reason).toEqualTypeOf<'replay-unavailable' | 'gap' | 'undecodable'>();
        break;
      default:
        // Every known kind has a case: nothing is left.
        expectTypeOf(account).toBeNever();
    }
    if (isKnownEvent(market)) {
      switch (market.event) {
        case 'auction.snapshot':
          expectTypeOf(market.data).toEqualTypeOf<MarketSnapshot>();
          break;
        case 'auction.cleared':
          expectTypeOf(market.data).toEqualTypeOf<AuctionEventData>();
          break;
      }
    }
  });

  it('without the guard a switch cannot narrow: the pass-through kind keeps data unknown', () => {
    if (account.event === 'order.updated') expectTypeOf(account.data).toEqualTypeOf<unknown>();
  });

  it('unknown kinds fall back to a generic event with unknown data', () => {
    expectTypeOf(market.event).toEqualTypeOf<string>();
    expectTypeOf(market.channel).toEqualTypeOf<'market'>();
    expectTypeOf(account.channel).toEqualTypeOf<'account'>();
    // @ts-expect-error market names are not account names
    isEvent(market, 'order.updated') satisfies boolean;
  });

  it('iterators are async iterables of their channel events', () => {
    expectTypeOf(stream.market()).toMatchTypeOf<AsyncIterable<MarketEvent>>();
    expectTypeOf(stream.account()).toMatchTypeOf<AsyncIterable<AccountEvent>>();
  });
});
