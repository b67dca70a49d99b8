import { describe, expect, it } from 'vitest';
import {
  auth,
  burnParams,
  clientOf,
  expectFilled,
  mintParams,
  mirrorOf,
  type PresetRig,
  placeOrder,
  startRig,
} from './preset-rig.js';

const CYCLE = 10_000;
const SETTLE = 1_000;

async function statusOf(r: PresetRig, id: string): Promise<string> {
  const res = await fetch(`${r.url}/v1/match/orders/${id}`, { headers: auth('minter') });
  return ((await res.json()) as { data: { status: string } }).data.status;
}

describe('settlement-slow', () => {
  it('settles each auction a whole cycle after its clear, with the next clear, invariants kept', async () => {
    const rig = await startRig(['settlement-slow']);
    const settled: Array<{ auctionId: number; clearedAt: string; settledAt: string }> = [];
    rig.sim.onEvent((e) => {
      if (e.event === 'auction.settled') settled.push(e.data as (typeof settled)[number]);
    });
    const events: string[] = [];
    rig.sim.onEvent((e) => {
      if (e.channel === 'market') events.push(`${e.event} ${(e.data as { auctionId: number }).auctionId}`);
    });
    const id = await placeOrder(rig.url, 'minter', 'MINT');
    await placeOrder(rig.url, 'burner', 'BURN');
    rig.sim.advance(CYCLE);
    expect(await statusOf(rig, id)).toBe('settling');
    // Where it would have settled: still settling.
    rig.sim.advance(SETTLE);
    expect(await statusOf(rig, id)).toBe('settling');
    expect(rig.sim.checkInvariants()).toEqual([]);
    rig.sim.advance(CYCLE - SETTLE);
    expect(await statusOf(rig, id)).toBe('filled');
    const [first] = settled;
    expect(first?.auctionId).toBe(1);
    expect(Date.parse(first?.settledAt ?? '') - Date.parse(first?.clearedAt ?? '')).toBe(CYCLE);
    // The next clear settles the previous auction first: one auction settles at a time.
    expect(events.slice(-4)).toEqual([
      'auction.locked 2',
      'auction.settled 1',
      'auction.cleared 2',
      'auction.opened 3',
    ]);
    expect(rig.sim.checkInvariants()).toEqual([]);
  });

  it('leaves clearAuction() as it is: the control plane settles at once', async () => {
    const rig = await startRig(['settlement-slow']);
    const id = await placeOrder(rig.url, 'minter', 'MINT');
    await placeOrder(rig.url, 'burner', 'BURN');
    rig.sim.clearAuction();
    expect(await statusOf(rig, id)).toBe('filled');
  });

  it('keeps the mirror and waitForOutcome exact while settlement lags a cycle', async () => {
    const rig = await startRig(['settlement-slow']);
    const [minter, burner] = [clientOf(rig, 'minter'), clientOf(rig, 'burner')];
    const opened = await mirrorOf(minter);
    const ids: string[] = [];
    for (let round = 0; round < 3; round++) {
      const placed = await minter.orders.place(mintParams('100', '4'));
      await burner.orders.place(burnParams('100', '6'));
      const outcome = minter.orders.waitForOutcome(placed.orderId, {
        stream: opened.mirror,
        pollIntervalMs: 5,
      });
      // Its clear, then the next one (which settles it first).
      rig.sim.advance(CYCLE);
      rig.sim.advance(CYCLE);
      await expectFilled(minter, opened.mirror, ids, outcome);
    }
    expect(rig.sim.checkInvariants()).toEqual([]);
  });
});
