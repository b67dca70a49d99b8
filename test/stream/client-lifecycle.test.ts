import { MatchVenueError, StreamGaveUpError } from 'match-venue';
import { describe, expect, it } from 'vitest';
import { placeOrder, take } from './helpers.js';
import { accountReady, open } from './client-venue.js';
import { useVenue, venue } from './venue-per-test.js';

useVenue();

describe('connectStream against the simulator', () => {
  it('entity A never sees entity B events', async () => {
    const burner = open('burner');
    const minter = open('minter');
    const burnerAcc = await accountReady(burner.stream);
    const minterAcc = await accountReady(minter.stream);
    const mints = [
      await placeOrder(venue.url, 'minter', 'MINT'),
      await placeOrder(venue.url, 'minter', 'MINT'),
    ];
    const burn = await placeOrder(venue.url, 'burner', 'BURN');
    const minterSeen = await take(minterAcc, 4);
    const burnerSeen = await take(burnerAcc, 2);
    expect(burnerSeen.map((e) => (e.data as { orderId?: string }).orderId)).toEqual([burn, undefined]);
    expect(
      minterSeen
        .filter((e) => e.event === 'order.accepted')
        .map((e) => (e.data as { orderId: string }).orderId),
    ).toEqual(mints);
    expect(JSON.stringify(burnerSeen)).not.toMatch(new RegExp(mints.join('|')));
  });

  it('close() ends every iterator, pending or not, and later iterators are already done', async () => {
    const { stream, states } = open('burner');
    const market = stream.market();
    const account = stream.account();
    await take(market, 1);
    const pending = account.next();
    await stream.close();
    await expect(pending).resolves.toEqual({ value: undefined, done: true });
    await expect(market.next()).resolves.toEqual({ value: undefined, done: true });
    await expect(stream.market().next()).resolves.toEqual({ value: undefined, done: true });
    expect(stream.state).toBe('closed');
    expect(states).toEqual(['connecting', 'open', 'closed']);
  });

  it('gives up after maxAttempts failed connects, ending iterators with the error (a fresh ticket per attempt)', async () => {
    const { stream, host } = open(
      'burner',
      { reconnect: { initialDelayMs: 1, maxDelayMs: 2, maxAttempts: 2 } },
      'ws://127.0.0.1:1',
    );
    const it = stream.market();
    await expect(it.next()).rejects.toThrow(/gave up after 2 failed connection attempts/);
    expect(stream.state).toBe('closed');
    expect(new Set(host.tickets).size).toBe(3);
  });

  it('gives up with a StreamGaveUpError (MV_STREAM_GAVE_UP) that says how many attempts failed and why', async () => {
    const { stream } = open(
      'burner',
      { reconnect: { initialDelayMs: 1, maxDelayMs: 2, maxAttempts: 1 } },
      'ws://127.0.0.1:1',
    );
    const error = await stream
      .market()
      .next()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamGaveUpError);
    expect(error).toBeInstanceOf(MatchVenueError);
    expect(error).toMatchObject({ kind: 'MV_STREAM_GAVE_UP', code: 'MV_STREAM_GAVE_UP', attempts: 1 });
    expect((error as StreamGaveUpError).reason).toMatch(/^socket closed \(\d+\)$/);
  });
});
