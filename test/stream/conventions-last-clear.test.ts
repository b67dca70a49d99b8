import { isEvent } from 'match-venue';
import { describe, expect, it } from 'vitest';
import { placeOrder, take, until } from './helpers.js';
import { at, client, connect, rawSocket } from './conventions-venue.js';
import { useVenue, venue } from './venue-per-test.js';

// Part of the venue's published socket conventions: see conventions-venue.ts.

useVenue();

describe('lastClear', () => {
  it('is null on the snapshot before the first clear; after it, the snapshot and every auction event carry it', async () => {
    const before = await rawSocket('burner');
    before.ws.send(JSON.stringify({ op: 'subscribe', channel: 'market', id: 1 }));
    await until(() => before.events().length === 1, 'the snapshot');
    expect(before.events()[0]?.data).toMatchObject({
      auction: { auctionId: 1 },
      settling: null,
      lastClear: null,
    });

    await placeOrder(venue.url, 'burner', 'BURN', '1000.00');
    await placeOrder(venue.url, 'minter', 'MINT', '1000.00');
    venue.sim.clearAuction({ settle: false });
    await until(() => before.events().some((e) => e.event === 'auction.opened'), 'the next auction');
    const cleared = before.events().find((e) => e.event === 'auction.cleared');
    const clearedAt = at(cleared?.data, 'clearedAt');
    const lastClear = {
      auctionId: 1,
      clearedAt,
      clearingFeeBps: '5.00',
      matchedVolume: 100_000,
      fillsCount: 2,
    };
    expect(at(cleared?.data, 'lastClear')).toEqual(lastClear);
    expect(at(before.events().find((e) => e.event === 'auction.locked')?.data, 'lastClear')).toBeNull();
    expect(at(before.events().find((e) => e.event === 'auction.opened')?.data, 'lastClear')).toEqual(
      lastClear,
    );

    const after = await rawSocket('burner');
    after.ws.send(JSON.stringify({ op: 'subscribe', channel: 'market', id: 1 }));
    await until(() => after.events().length === 1, 'the snapshot');
    expect(after.events()[0]?.data).toMatchObject({
      auction: { auctionId: 2 },
      settling: { auctionId: 1 },
      lastClear,
    });

    // Through the client: typed, with the matched volume as REST's Money.
    const market = connect(client('burner')).market();
    const [snapshot] = await take(market, 1);
    if (!snapshot || !isEvent(snapshot, 'auction.snapshot')) throw new Error('expected the snapshot first');
    expect(snapshot.data.lastClear).toEqual({
      ...lastClear,
      matchedVolume: { amount: '1000.00', currency: 'USD' },
    });
  });
});
