import { randomUUID } from 'node:crypto';
import { MatchVenueError, StreamGaveUpError } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AccountEvent,
  connectStream,
  isEvent,
  type StreamState,
  type VenueStream,
} from '../../src/stream/index.js';
import {
  auth,
  extraSocketServer,
  hostFor,
  placeOrder,
  type SeededName,
  startVenue,
  type TestHost,
  take,
  until,
  type Venue,
} from './helpers.js';

let venue: Venue;
const cleanups: (() => Promise<void>)[] = [];
const fast = { reconnect: { initialDelayMs: 1, maxDelayMs: 5 } };

beforeEach(async () => {
  venue = await startVenue();
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await venue.close();
});

function open(
  name: SeededName,
  options = {},
  wsUrl = venue.wsUrl,
): { stream: VenueStream; host: TestHost; states: StreamState[] } {
  const host = hostFor(venue.url, wsUrl, name);
  const stream = connectStream(host, { ...fast, ...options });
  const states: StreamState[] = [];
  stream.on('state', (s) => states.push(s.state));
  cleanups.push(() => stream.close());
  return { stream, host, states };
}

/**
 * Subscribes the account channel, then proves the subscription is live: the server handles
 * frames in order, so once the later market subscribe's snapshot arrives, the account one is active.
 */
async function accountReady(stream: VenueStream) {
  const account = stream.account();
  const probe = stream.market();
  await take(probe, 1);
  await probe.return?.();
  return account;
}

function serverAccountLog(entityId: string): { event: string; data: unknown }[] {
  const log: { event: string; data: unknown }[] = [];
  const off = venue.sim.onEvent((e) => {
    if (e.channel === 'account' && e.entityId === entityId) log.push({ event: e.event, data: e.data });
  });
  cleanups.push(async () => off());
  return log;
}

describe('connectStream against the simulator', () => {
  it('delivers every market and account event kind through full auction cycles, typed and in seq order', async () => {
    const burner = open('burner');
    const minter = open('minter');
    const market = burner.stream.market();
    const burnerAcc = await accountReady(burner.stream);
    const minterAcc = await accountReady(minter.stream);
    const snapshot = (await take(market, 1))[0];
    expect(snapshot?.event).toBe('auction.snapshot');

    const burnId = await placeOrder(venue.url, 'burner', 'BURN', '1000.00');
    const mintId = await placeOrder(venue.url, 'minter', 'MINT', '1000.00');
    venue.sim.clearAuction({ settle: false });
    venue.sim.settleAuction();
    venue.sim.clearAuction();
    const withdrawal = await fetch(`${venue.url}/v1/match/withdrawals`, {
      method: 'POST',
      headers: auth('minter'),
      body: JSON.stringify({
        idempotencyKey: randomUUID(),
        amount: { amount: '10.00', currency: 'USD' },
        fiatAccountId: SEEDED.minter.fiatAccountId,
      }),
    });
    expect(withdrawal.status).toBe(201);
    venue.sim.advance(60_000);

    const marketKinds = new Set<string>();
    const marketSeqs: number[] = [];
    while (
      !marketKinds.has('auction.settled') ||
      !marketKinds.has('auction.opened') ||
      marketKinds.size < 4
    ) {
      const [ev] = await take(market, 1);
      if (!ev) break;
      marketKinds.add(ev.event);
      marketSeqs.push(ev.seq);
      if (isEvent(ev, 'auction.cleared') && ev.data.auctionId === 1) {
        expect(ev.data.clearingFeeBps).toBe('5.00');
        expect(ev.data.matchedVolume).toEqual({ amount: '1000.00', currency: 'USD' });
      }
    }
    expect([...marketKinds].sort()).toEqual([
      'auction.cleared',
      'auction.locked',
      'auction.opened',
      'auction.settled',
    ]);
    expect(marketSeqs).toEqual(marketSeqs.map((_, i) => (marketSeqs[0] as number) + i));

    const burnerEvents: AccountEvent[] = [];
    while (!burnerEvents.some((e) => isEvent(e, 'order.updated') && e.data.status === 'filled')) {
      burnerEvents.push(...(await take(burnerAcc, 1)));
    }
    const kinds = burnerEvents.map((e) => e.event);
    expect(kinds).toContain('order.accepted');
    expect(kinds).toContain('balance.updated');
    const burnStatuses = burnerEvents.flatMap((e) => (isEvent(e, 'order.updated') ? [e.data.status] : []));
    expect(burnStatuses).toEqual(['settling', 'filled']);
    const accepted = burnerEvents.find((e) => isEvent(e, 'order.accepted'));
    expect(accepted?.data).toMatchObject({
      orderId: burnId,
      orderType: 'BURN',
      amount: { amount: '1000.00', currency: 'USD' },
    });

    const minterEvents: AccountEvent[] = [];
    while (!minterEvents.some((e) => isEvent(e, 'withdrawal.updated') && e.data.status === 'completed')) {
      minterEvents.push(...(await take(minterAcc, 1)));
    }
    expect(new Set(minterEvents.map((e) => e.event))).toEqual(
      new Set(['order.accepted', 'balance.updated', 'order.updated', 'withdrawal.updated']),
    );
    expect(minterEvents.find((e) => isEvent(e, 'order.accepted'))?.data).toMatchObject({ orderId: mintId });
    const seqs = minterEvents.map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => (seqs[0] as number) + i));
    // Entity isolation: nothing of the minter reached the burner.
    expect(JSON.stringify(burnerEvents)).not.toContain(mintId);
  });

  it('survives 20 server kills: every account event exactly once, in order, with a fresh ticket per connect', async () => {
    const logs: string[] = [];
    const logger = {
      debug: (m: string, meta?: unknown) => logs.push(m + JSON.stringify(meta ?? {})),
      info: (m: string, meta?: unknown) => logs.push(m + JSON.stringify(meta ?? {})),
      warn: (m: string, meta?: unknown) => logs.push(m + JSON.stringify(meta ?? {})),
      error: (m: string, meta?: unknown) => logs.push(m + JSON.stringify(meta ?? {})),
    };
    const { stream, host } = open('burner');
    host.logger = logger;
    const expected = serverAccountLog(SEEDED.burner.entityId);
    const account = await accountReady(stream);
    const opened = () =>
      new Promise<void>((resolve) => {
        const off = stream.on('state', (s) => {
          if (s.state === 'open') {
            off();
            resolve();
          }
        });
      });

    for (let kill = 0; kill < 20; kill++) {
      await placeOrder(venue.url, 'burner', 'BURN');
      const reopened = opened();
      if (kill % 2 === 0) {
        // Hold the reconnect so events pile up while the client is away.
        let release = () => {};
        host.gate = new Promise<void>((r) => {
          release = r;
        });
        venue.sim.killSockets();
        await until(() => stream.state === 'reconnecting', 'reconnecting');
        await placeOrder(venue.url, 'burner', 'BURN');
        host.gate = undefined;
        release();
      } else {
        venue.sim.killSockets();
        await placeOrder(venue.url, 'burner', 'BURN');
      }
      await reopened;
    }
    const got = await take(account, expected.length);
    expect(got.map((e) => ({ event: e.event, data: e.data }))).toEqual(expected);
    const seqs = got.map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => (seqs[0] as number) + i));
    expect(got.some((e) => e.event === 'stream.resync')).toBe(false);

    // Nothing extra is pending: the next event is the next order's.
    const next = await placeOrder(venue.url, 'burner', 'BURN');
    const [after] = await take(account, 1);
    expect(after).toMatchObject({ event: 'order.accepted', data: { orderId: next } });

    expect(stream.stats().reconnects).toBeGreaterThanOrEqual(20);
    expect(new Set(host.tickets).size).toBe(host.tickets.length);
    expect(host.tickets.length).toBeGreaterThanOrEqual(21);
    const text = logs.join('\n');
    for (const t of host.tickets) expect(text).not.toContain(t);
  });

  it('resyncs over REST when the server cannot replay: explicit resync event, then every missed order change once', async () => {
    const extra = await extraSocketServer(venue.sim, { replayBufferSize: 1 });
    cleanups.push(() => extra.close());
    const { stream, host } = open('burner', {}, extra.wsUrl);
    const account = await accountReady(stream);
    const first = await placeOrder(venue.url, 'burner', 'BURN');
    expect((await take(account, 2)).map((e) => e.event)).toEqual(['order.accepted', 'balance.updated']);

    let release = () => {};
    host.gate = new Promise<void>((r) => {
      release = r;
    });
    extra.handle.killSockets();
    await until(() => stream.state === 'reconnecting', 'reconnecting');
    const missed = [
      await placeOrder(venue.url, 'burner', 'BURN'),
      await placeOrder(venue.url, 'burner', 'BURN'),
      await placeOrder(venue.url, 'burner', 'BURN'),
    ];
    host.gate = undefined;
    release();

    const [resync, ...synthesized] = await take(account, 4);
    expect(resync).toMatchObject({
      event: 'stream.resync',
      channel: 'account',
      data: { reason: 'replay-unavailable', lastSeq: 2, resumedAtSeq: 8 },
    });
    expect(
      synthesized.map((e) =>
        [e.event, (e as { source?: string }).source, (e.data as { orderId: string }).orderId].join(),
      ),
    ).toEqual(expect.arrayContaining(missed.map((id) => ['order.updated', 'rest', id].join())));
    expect(synthesized).toHaveLength(3);
    expect(JSON.stringify(synthesized)).not.toContain(first);

    // The live feed resumes after the resync, numbered from the server's seq.
    const later = await placeOrder(venue.url, 'burner', 'BURN');
    const live = await take(account, 2);
    expect(live.map((e) => [e.event, e.seq])).toEqual([
      ['order.accepted', 9],
      ['balance.updated', 10],
    ]);
    expect(live[0]?.data).toMatchObject({ orderId: later });
    expect(stream.stats().resyncs).toBe(1);
  });

  it('resync reports an order whose status changed while away (filled), once, with its latest state', async () => {
    const extra = await extraSocketServer(venue.sim, { replayBufferSize: 1 });
    cleanups.push(() => extra.close());
    const { stream, host } = open('burner', {}, extra.wsUrl);
    const account = await accountReady(stream);
    const burn = await placeOrder(venue.url, 'burner', 'BURN', '1000.00');
    await placeOrder(venue.url, 'minter', 'MINT', '1000.00');
    const seen = await take(account, 2);
    expect(seen.map((e) => [e.event, (e.data as { status?: string }).status])).toEqual([
      ['order.accepted', 'pending'],
      ['balance.updated', undefined],
    ]);

    let release = () => {};
    host.gate = new Promise<void>((r) => {
      release = r;
    });
    extra.handle.killSockets();
    await until(() => stream.state === 'reconnecting', 'reconnecting');
    // Cleared, settled and a new auction opened: settling and filled both happen while away.
    venue.sim.clearAuction();
    host.gate = undefined;
    release();

    const [resync, fromRest] = await take(account, 2);
    expect(resync).toMatchObject({ event: 'stream.resync', data: { reason: 'replay-unavailable' } });
    expect(fromRest).toMatchObject({
      event: 'order.updated',
      source: 'rest',
      data: {
        orderId: burn,
        status: 'filled',
        fill: { filledAmount: { amount: '1000.00', currency: 'USD' } },
      },
    });
    // Nothing else was synthesized: the next event is live.
    const next = await placeOrder(venue.url, 'burner', 'BURN');
    const [live] = await take(account, 1);
    expect(live).toMatchObject({ event: 'order.accepted', data: { orderId: next } });
    expect(live).not.toHaveProperty('source');
  });

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
