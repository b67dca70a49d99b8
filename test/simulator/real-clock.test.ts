import { createSimulator } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';

describe('real clock', () => {
  it('timers drive open -> lock -> clear -> settle, and close() stops them', async () => {
    const sim = createSimulator({ clock: 'real', cycleMs: 60, lockMs: 20, settleMs: 10 });
    const seen: string[] = [];
    const settled = new Promise<void>((resolve) => {
      sim.onEvent((e) => {
        if (e.channel !== 'market') return;
        seen.push(`${e.event}:${(e.data as { auctionId: number }).auctionId}`);
        if (e.event === 'auction.settled') resolve();
      });
    });
    await settled;
    await sim.close();
    expect(seen.slice(0, 4)).toEqual([
      'auction.locked:1',
      'auction.cleared:1',
      'auction.opened:2',
      'auction.settled:1',
    ]);
    expect(sim.checkInvariants()).toEqual([]);
    const count = seen.length;
    await new Promise((r) => setTimeout(r, 150));
    expect(seen.length).toBe(count);
  });

  it('market snapshot names the current auction and the one settling', () => {
    const sim = createSimulator();
    sim.clearAuction({ settle: false });
    const snap = sim.marketSnapshot();
    expect(snap.auction).toMatchObject({ auctionId: 2, phase: 'open' });
    expect(snap.settling).toMatchObject({ auctionId: 1, phase: 'settling' });
    sim.settleAuction();
    expect(sim.marketSnapshot().settling).toBeNull();
    expect(sim.marketSnapshot().lastClear).toMatchObject({ auctionId: 1, fillsCount: 0 });
  });
});

describe('long clock jumps', () => {
  it('skip idle auctions in one step: the auction id matches the elapsed cycles', () => {
    const sim = createSimulator({
      startTime: '2026-01-01T00:00:00.000Z',
      cycleMs: 10_000,
      lockMs: 2_000,
      settleMs: 1_000,
    });
    sim.advance(7 * 24 * 3600 * 1000 + 5_000);
    const s = sim.getState();
    expect(s.auction).toMatchObject({
      auctionId: 60_481,
      phase: 'open',
      opensAt: '2026-01-08T00:00:00.000Z',
    });
    expect(sim.checkInvariants()).toEqual([]);
  });
});
