import { randomUUID } from 'node:crypto';
import { isEvent } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { SOCKET_EVENT_PAYLOADS, SOCKET_MONEY_FIELDS } from '../../src/contract/ws-codec.js';
import type { StreamEvent } from '../../src/stream/index.js';
import { placeOrder, take, until } from './helpers.js';
import {
  at,
  client,
  connect,
  moneyObjects,
  post,
  rawSocket,
  scriptedServer,
  trade,
} from './conventions-venue.js';
import { useVenue, venue } from './venue-per-test.js';

// Part of the venue's published socket conventions: see conventions-venue.ts.

useVenue();

describe('money on the socket is integer cents', () => {
  it('every money field of every event kind the simulator sends, snapshot included, is a bare integer', async () => {
    const burner = await rawSocket('burner');
    const minter = await rawSocket('minter');
    burner.ws.send(JSON.stringify({ op: 'subscribe', channel: 'market', id: 1 }));
    burner.ws.send(JSON.stringify({ op: 'subscribe', channel: 'account', id: 2 }));
    minter.ws.send(JSON.stringify({ op: 'subscribe', channel: 'account', id: 1 }));
    await until(() => minter.frames.some((f) => f.type === 'subscribed'), 'subscriptions');
    await until(() => burner.frames.filter((f) => f.type === 'subscribed').length === 2, 'subscriptions');
    await placeOrder(venue.url, 'burner', 'BURN', '1000.00');
    await placeOrder(venue.url, 'minter', 'MINT', '1000.00');
    venue.sim.clearAuction({ settle: false });
    // A snapshot with an auction settling and a last clear: every snapshot money field is set.
    const late = await rawSocket('burner');
    late.ws.send(JSON.stringify({ op: 'subscribe', channel: 'market', id: 1 }));
    await until(() => late.events().length === 1, 'the snapshot');
    venue.sim.settleAuction();
    await post('/v1/match/withdrawals', 'minter', {
      idempotencyKey: randomUUID(),
      amount: { amount: '1.00', currency: 'USD' },
      fiatAccountId: SEEDED.minter.fiatAccountId,
    });
    venue.sim.advance(5_000);
    await until(
      () =>
        minter.events().some((e) => e.event === 'withdrawal.updated' && at(e.data, 'status') === 'completed'),
      'the withdrawal to complete',
    );

    const events = [...burner.events(), ...minter.events(), ...late.events()];
    expect(new Set(events.map((e) => e.event))).toEqual(new Set(SOCKET_EVENT_PAYLOADS.keys()));
    const seen = new Set<string>();
    for (const e of events) {
      expect(moneyObjects(e.data), `${e.event} carries no Money object`).toEqual([]);
      const payload = SOCKET_EVENT_PAYLOADS.get(e.event as string);
      for (const path of SOCKET_MONEY_FIELDS[payload as keyof typeof SOCKET_MONEY_FIELDS]) {
        const value = at(e.data, path);
        if (value === undefined || value === null) continue;
        expect(Number.isSafeInteger(value) && (value as number) >= 0, `${e.event} ${path} = ${value}`).toBe(
          true,
        );
        seen.add(`${payload}:${path}`);
      }
    }
    // Every field of the table held a value at least once in this run.
    const every = Object.entries(SOCKET_MONEY_FIELDS).flatMap(([p, paths]) =>
      paths.map((path) => `${p}:${path}`),
    );
    expect([...seen].sort()).toEqual(every.sort());
    const filled = burner
      .events()
      .find((e) => e.event === 'order.updated' && at(e.data, 'status') === 'filled');
    expect(at(filled?.data, 'amount')).toBe(100_000);
    expect(at(filled?.data, 'fill.filledAmount')).toBe(100_000);
  });

  it("the same order: integer cents on the wire, REST's Money out of the client (equal to GET /v1/match/orders/{id})", async () => {
    const raw = await rawSocket('burner');
    raw.ws.send(JSON.stringify({ op: 'subscribe', channel: 'account', id: 1 }));
    await until(() => raw.frames.some((f) => f.type === 'subscribed'), 'the raw subscription');
    const burner = client('burner');
    const stream = connect(burner);
    const account = stream.account();
    expect(await account.ready).toBe(true);
    const { burnId } = await trade();
    const seen: StreamEvent[] = [];
    // next() by hand: leaving a for-await would end the iterator.
    for (;;) {
      const [ev] = await take(account, 1);
      if (!ev) throw new Error('no event');
      seen.push(ev);
      if (isEvent(ev, 'order.updated') && ev.data.orderId === burnId && ev.data.status === 'filled') break;
    }
    const last = seen.filter((e) => isEvent(e, 'order.updated')).at(-1);
    expect(last?.data).toEqual(await burner.orders.retrieve(burnId));
    expect(last?.data).toMatchObject({
      amount: { amount: '1000.00', currency: 'USD' },
      fill: {
        filledAmount: { amount: '1000.00', currency: 'USD' },
        unfilledAmount: { amount: '0.00', currency: 'USD' },
      },
    });
    // Settling the order moved the balance last: the last balance event is the account as REST reads it.
    const [balance] = await take(account, 1);
    expect(balance?.event).toBe('balance.updated');
    expect(balance?.data).toEqual(await burner.account.retrieve());
    // What the socket carried for the same two events.
    await until(() => raw.events().length === seen.length + 1, 'the raw socket to catch up');
    const rawFilled = raw
      .events()
      .find((e) => at(e.data, 'orderId') === burnId && at(e.data, 'status') === 'filled');
    expect(at(rawFilled?.data, 'amount')).toBe(100_000);
    expect(at(rawFilled?.data, 'fill')).toMatchObject({ filledAmount: 100_000, unfilledAmount: 0 });
    expect(at(raw.events().at(-1)?.data, 'stablecoin.total')).toEqual(expect.any(Number));
  });
});

describe('an event the client cannot decode', () => {
  it('is not dropped in silence: a stream.resync names it, then the order is re-read over REST', async () => {
    const server = await scriptedServer();
    const order = {
      orderId: '7f358870-e02f-407a-81b0-603a6c5cb023',
      auctionId: 1,
      lineage: { parentOrderId: null, childOrderId: null },
      orderType: 'MINT',
      amount: { amount: '1000.00', currency: 'USD' },
      feeBps: '4',
      postFillAction: 'roll',
      status: 'pending',
      createdAt: new Date(Date.now() + 60_000).toISOString(),
      updatedAt: new Date(Date.now() + 60_000).toISOString(),
      fill: null,
      sourceWalletId: null,
      fiatAccountId: null,
    };
    const reads: unknown[] = [];
    const stream = server.stream({}, async function* (query) {
      reads.push(query);
      yield { orders: query.status === 'settling' ? [] : [order] };
    });
    const account = stream.account();
    const market = stream.market();
    await until(server.connected, 'the socket');
    server.sendHello();
    expect(await account.ready).toBe(true);
    const ts = new Date(Date.now() + 60_000).toISOString();
    server.send({
      type: 'event',
      channel: 'account',
      seq: 1,
      event: 'order.updated',
      data: { ...order, amount: 10.5 },
      ts,
    });
    server.send({
      type: 'event',
      channel: 'account',
      seq: 2,
      event: 'order.updated',
      data: { ...order, amount: 100_000, feeBps: '5' },
      ts,
    });
    const [resync, fromRest, live] = await take(account, 3);
    expect(resync).toEqual({
      type: 'event',
      channel: 'account',
      seq: 1,
      event: 'stream.resync',
      data: {
        reason: 'undecodable',
        lastSeq: 0,
        resumedAtSeq: 1,
        event: 'order.updated',
        error:
          'order.updated: data.amount must be a non-negative integer number of cents (socket money), got 10.5',
      },
      ts,
    });
    expect(fromRest).toMatchObject({ event: 'order.updated', source: 'rest', data: order });
    expect(live).toMatchObject({
      seq: 2,
      data: { amount: { amount: '1000.00', currency: 'USD' }, feeBps: '5' },
    });
    expect(stream.stats().resyncs).toBe(1);

    // On the market channel too: the consumer is told, and the channel stays where it was.
    const [snapshot] = await take(market, 1);
    expect(snapshot?.event).toBe('auction.snapshot');
    server.send({
      type: 'event',
      channel: 'market',
      seq: 1,
      event: 'auction.opened',
      data: { auctionId: 2, matchedVolume: '0' },
      ts,
    });
    const [marker] = await take(market, 1);
    expect(marker).toMatchObject({
      event: 'stream.resync',
      data: { reason: 'undecodable', event: 'auction.opened' },
    });
  });
});
