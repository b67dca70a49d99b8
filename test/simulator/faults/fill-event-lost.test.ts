import { describe, expect, it } from 'vitest';
import {
  burnParams,
  clientOf,
  expectFilled,
  mintParams,
  mirrorOf,
  placeOrder,
  startRig,
  subscribeAccount,
  upgrade,
  issueTicket,
} from './preset-rig.js';

describe('fill-event-lost', () => {
  it("loses the clear's order.updated of a fill: its seq is consumed, the next event shows the gap", async () => {
    const rig = await startRig(['fill-event-lost']);
    const raw = await subscribeAccount(rig, 'minter');
    const orderId = await placeOrder(rig.url, 'minter', 'MINT');
    await placeOrder(rig.url, 'burner', 'BURN');
    await raw.next((f) => f.event === 'balance.updated');
    const beforeClear = raw.frames.filter((f) => f.type === 'event').length;
    rig.sim.clearAuction({ settle: false });
    // Heartbeats go on: a ping is answered, and nothing before the pong tells of the lost fill.
    raw.ws.send(JSON.stringify({ op: 'ping', id: 7 }));
    await raw.next((f) => f.type === 'pong');
    expect(raw.frames.filter((f) => f.type === 'event')).toHaveLength(beforeClear);
    rig.sim.settleAuction();
    const filled = await raw.next((f) => f.event === 'order.updated' && f.data?.status === 'filled');
    const events = raw.frames.filter((f) => f.type === 'event');
    const seqs = events.map((f) => f.seq);
    // accepted 1, balance 2, the lost fill (settling) 3, then the settlement's filled 4.
    expect(seqs.slice(0, beforeClear)).toEqual([1, 2]);
    expect(filled.seq).toBe(4);
    expect(events.some((f) => f.data?.status === 'settling')).toBe(false);
    // The server believes it sent it: a client resuming from seq 2 is replayed the lost frame.
    const again = await upgrade(rig.wsUrl, await issueTicket(rig.url, 'minter'));
    if (!('ws' in again)) throw new Error(`refused ${again.status}`);
    const replayed: Array<{ seq?: number; data?: { orderId?: string; status?: string } }> = [];
    const got3 = new Promise<void>((resolve) =>
      again.ws.on('message', (d: Buffer) => {
        const f = JSON.parse(d.toString());
        if (f.type === 'event') replayed.push(f);
        if (f.seq === 3 && f.type === 'event') resolve();
      }),
    );
    again.ws.send(JSON.stringify({ op: 'subscribe', channel: 'account', since: 2 }));
    await got3;
    expect(replayed[0]).toMatchObject({ seq: 3, data: { orderId, status: 'settling' } });
    again.ws.close();
    raw.ws.close();
  });

  it('keeps the mirror and waitForOutcome exact: the gap resyncs over REST', async () => {
    const rig = await startRig(['fill-event-lost']);
    const [minter, burner] = [clientOf(rig, 'minter'), clientOf(rig, 'burner')];
    const { mirror, stream } = await mirrorOf(minter);
    const ids: string[] = [];
    for (let round = 0; round < 3; round++) {
      const placed = await minter.orders.place(mintParams('100', '4'));
      await burner.orders.place(burnParams('100', '6'));
      rig.sim.clearAuction();
      await expectFilled(minter, mirror, ids, placed.orderId);
    }
    // Each lost fill was noticed at the next event and read back over REST.
    expect(stream.stats().resyncs).toBe(3);
    expect(rig.sim.checkInvariants()).toEqual([]);
  });
});
