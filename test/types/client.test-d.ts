import {
  type APIError,
  type APIErrorKind,
  type APIPromise,
  ErrorCode,
  isApiError,
  type MatchVenue,
  type Money,
  type Orders,
  type Page,
  type PagePromise,
  usd,
  type WithResponse,
} from 'match-venue';
import type * as sdk from 'match-venue';
import { describe, expectTypeOf, it } from 'vitest';

declare const venue: MatchVenue;
declare const order: Orders.Order;

describe('public types', () => {
  it('Orders.Order is a union discriminated on orderType', () => {
    expectTypeOf(order).toEqualTypeOf<Orders.BurnOrder | Orders.MintOrder>();
    if (order.orderType === 'BURN') {
      expectTypeOf(order).toEqualTypeOf<Orders.BurnOrder>();
      expectTypeOf(order.sourceWalletId).toEqualTypeOf<string>();
    } else {
      expectTypeOf(order).toEqualTypeOf<Orders.MintOrder>();
      expectTypeOf(order.sourceWalletId).toEqualTypeOf<null>();
      expectTypeOf(order.fiatAccountId).toEqualTypeOf<null>();
    }
  });

  it('isApiError narrows to APIError with the literal venue code; code is the kind string', () => {
    const err: unknown = new Error('x');
    if (isApiError(err, ErrorCode.AuctionLocked)) {
      expectTypeOf(err).toExtend<APIError>();
      expectTypeOf(err.venueCode).toEqualTypeOf<136001>();
      expectTypeOf(err.status).toEqualTypeOf<number>();
    }
    if (isApiError(err)) {
      expectTypeOf(err.venueCode).toEqualTypeOf<number | undefined>();
      expectTypeOf(err.code).toEqualTypeOf<APIErrorKind>();
    }
    expectTypeOf(ErrorCode.SelfMatch).toEqualTypeOf<137006>();
  });

  it('list is a PagePromise: awaited -> Page<Orders.Order>, iterated -> Orders.Order', async () => {
    const list = venue.orders.list({ status: 'pending' });
    expectTypeOf(list).toEqualTypeOf<PagePromise<Orders.Order>>();
    expectTypeOf(list).toExtend<AsyncIterable<Orders.Order>>();
    const page = await list;
    expectTypeOf(page).toEqualTypeOf<Page<Orders.Order>>();
    expectTypeOf(page.items).toEqualTypeOf<Orders.Order[]>();
    expectTypeOf(page.hasNextPage()).toEqualTypeOf<boolean>();
    expectTypeOf(page.getNextPage()).toEqualTypeOf<PagePromise<Orders.Order>>();
    for await (const o of list) expectTypeOf(o).toEqualTypeOf<Orders.Order>();
    for await (const o of page) expectTypeOf(o).toEqualTypeOf<Orders.Order>();
    const burns = await venue.orders.list({ orderType: 'BURN' });
    expectTypeOf(burns.items).toEqualTypeOf<Orders.BurnOrder[]>();
    for await (const m of venue.orders.list({ orderType: 'MINT', pageSize: 100 }))
      expectTypeOf(m).toEqualTypeOf<Orders.MintOrder>();
    // @ts-expect-error unknown status values are rejected at compile time
    venue.orders.list({ status: 'open' });
  });

  it('methods return APIPromise with withResponse()', async () => {
    const placed = venue.orders.place({
      orderType: 'MINT',
      amount: usd('100'),
      postFillAction: 'cancel',
    });
    expectTypeOf(placed).toEqualTypeOf<APIPromise<Orders.PlaceOrderResult>>();
    expectTypeOf(await placed).toEqualTypeOf<Orders.PlaceOrderResult>();
    expectTypeOf(await placed.withResponse()).toEqualTypeOf<WithResponse<Orders.PlaceOrderResult>>();
    expectTypeOf(placed.asResponse()).toEqualTypeOf<Promise<Response>>();
    // @ts-expect-error BURN orders need sourceWalletId and fiatAccountId
    venue.orders.place({ orderType: 'BURN', amount: usd('100'), postFillAction: 'cancel' });
  });

  it('money helpers', () => {
    expectTypeOf(usd('1')).toEqualTypeOf<Money<'USD'>>();
    expectTypeOf(usd).parameter(0).toEqualTypeOf<string | number | bigint | import('decimal.js').Decimal>();
  });

  it('every method that calls the API returns an APIPromise; only the helpers that settle, wait or watch do not', () => {
    // The names of R's methods that return something other than an APIPromise (PagePromise is
    // one); symbol keys (util.inspect's hook) are no API call.
    type NotApiPromise<R> = Exclude<NotApiPromiseKey<R>, symbol>;
    type NotApiPromiseKey<R> = {
      // biome-ignore lint/suspicious/noExplicitAny: any function, whatever its parameters
      [K in keyof R]: R[K] extends (...args: any[]) => infer Ret
        ? // biome-ignore lint/suspicious/noExplicitAny: an APIPromise of any data
          Ret extends APIPromise<any>
          ? never
          : K
        : never;
    }[keyof R];
    expectTypeOf(venue.verifyApiKey()).toEqualTypeOf<APIPromise<boolean>>();
    expectTypeOf(venue.configuration.verifyApiKey()).toEqualTypeOf<APIPromise<boolean>>();
    expectTypeOf(venue.snsSubscriptions.delete('id')).toEqualTypeOf<APIPromise<void>>();
    expectTypeOf<NotApiPromise<MatchVenue>>().toEqualTypeOf<'on' | 'toJSON'>();
    expectTypeOf<NotApiPromise<MatchVenue['orders']>>().toEqualTypeOf<'resolveUnknown' | 'waitForOutcome'>();
    expectTypeOf<NotApiPromise<MatchVenue['withdrawals']>>().toEqualTypeOf<'resolveUnknown'>();
    expectTypeOf<NotApiPromise<MatchVenue['snsSubscriptions']>>().toEqualTypeOf<'resolveUnknown'>();
    expectTypeOf<NotApiPromise<MatchVenue['webhookSubscriptions']>>().toEqualTypeOf<never>();
    expectTypeOf<NotApiPromise<MatchVenue['configuration']>>().toEqualTypeOf<never>();
    expectTypeOf<NotApiPromise<MatchVenue['account']>>().toEqualTypeOf<'mirror'>();
    // orderPages is @internal: the published declarations leave it out.
    expectTypeOf<Exclude<NotApiPromise<MatchVenue['stream']>, 'orderPages'>>().toEqualTypeOf<'connect'>();
  });

  it('the client shows no pipeline plumbing: its members are its resources and its own calls', () => {
    expectTypeOf<Exclude<keyof MatchVenue, symbol>>().toEqualTypeOf<
      | 'baseUrl'
      | 'environment'
      | 'wsUrl'
      | 'account'
      | 'orders'
      | 'withdrawals'
      | 'stream'
      | 'configuration'
      | 'snsSubscriptions'
      | 'webhookSubscriptions'
      | 'verifyApiKey'
      | 'on'
      | 'toJSON'
    >();
    type Plumbing =
      | 'request'
      | 'endpoint'
      | 'endpointPage'
      | 'unknownKeys'
      | 'telemetry'
      | 'logger'
      | 'client';
    expectTypeOf<Extract<keyof MatchVenue['orders'], Plumbing>>().toEqualTypeOf<never>();
    expectTypeOf<Extract<keyof MatchVenue['snsSubscriptions'], Plumbing>>().toEqualTypeOf<never>();
    expectTypeOf<Extract<keyof MatchVenue['webhookSubscriptions'], Plumbing>>().toEqualTypeOf<never>();
    expectTypeOf<Extract<keyof MatchVenue['account'], Plumbing>>().toEqualTypeOf<never>();
  });

  it('the main entry exports no plumbing and no test support', () => {
    type Removed = 'path' | 'redact' | 'redactText' | 'getMockSimulator';
    expectTypeOf<Extract<keyof typeof sdk, Removed>>().toEqualTypeOf<never>();
    // @ts-expect-error FinalRequest is the pipeline's, not the API's
    type _FinalRequest = sdk.FinalRequest<unknown>;
    // @ts-expect-error HttpMethod is the pipeline's
    type _HttpMethod = sdk.HttpMethod;
    // @ts-expect-error QueryValue is the pipeline's
    type _QueryValue = sdk.QueryValue;
    // @ts-expect-error mock mode's binding is match-venue/testing's
    type _MockBinding = sdk.MockBinding;
    // @ts-expect-error the old name of venue.snsSubscriptions' type
    type _Subscriptions = sdk.Subscriptions;
    // @ts-expect-error the old name of venue.webhookSubscriptions' type
    type _Notifications = sdk.Notifications;
    expectTypeOf<sdk.SnsSubscriptions['create']>().toBeFunction();
    expectTypeOf<sdk.WebhookSubscriptions['getPublicKey']>().toBeFunction();
  });
});
