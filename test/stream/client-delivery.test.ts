import { randomUUID } from 'node:crypto';
import { SEEDED } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { type AccountEvent, isEvent } from '../../src/stream/index.js';
import { auth, placeOrder, take, until } from './helpers.js';
import { accountReady, open, serverAccountLog } from './client-venue.js';
import { useVenue, venue } from './venue-per-test.js';

useVenue();

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
});
