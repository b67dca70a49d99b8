import { describe, expectTypeOf, it } from 'vitest';
import {
  type AccountEvent,
  type AuctionEventData,
  isEvent,
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
