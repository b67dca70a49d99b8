import { describe, expect, it } from 'vitest';
import {
  burnParams,
  clientOf,
  expectFilled,
  mintParams,
  mirrorOf,
  placeOrder,
  startRig,
  auth,
  subscribeAccount,
} from './preset-rig.js';

describe('ack-after-event', () => {
  it("holds a place's 202 until its order.accepted was written: the client reads the event first", async () => {
    const rig = await startRig(['ack-after-event']);
    const raw = await subscribeAccount(rig, 'minter');
    const seen: string[] = [];
    raw.ws.on('message', (data: Buffer) => {
      const f = JSON.parse(data.toString()) as { event?: string; data?: { orderId?: string } };
      if (f.event === 'order.accepted') seen.push(`event ${f.data?.orderId}`);
    });
    for (let i = 0; i < 20; i++) {
      const id = await placeOrder(rig.url, 'minter', 'MINT');
      seen.push(`ack ${id}`);
      // The ack arrived after the event of the order it answers, every time.
      expect(seen.slice(-2), `placement ${i}`).toEqual([`event ${id}`, `ack ${id}`]);
    }
    raw.ws.close();
  });

  it('answers at once when the entity has no socket to wait for', async () => {
    const rig = await startRig(['ack-after-event']);
    // Without a subscriber there is nothing to precede: the place is not held (and does not hang).
    const id = await placeOrder(rig.url, 'burner', 'BURN');
    const res = await fetch(`${rig.url}/v1/match/orders/${id}`, { headers: auth('burner') });
    expect(res.status).toBe(200);
  });

  it('keeps the mirror and waitForOutcome exact when the event comes before the ack', async () => {
    const rig = await startRig(['ack-after-event']);
    const [minter, burner] = [clientOf(rig, 'minter'), clientOf(rig, 'burner')];
    const opened = await mirrorOf(minter);
    const ids: string[] = [];
    for (let round = 0; round < 3; round++) {
      const placed = await minter.orders.place(mintParams('100', '4'));
      // The event came first: the mirror holds the order when the place returns.
      expect(opened.mirror.order(placed.orderId)?.orderId).toBe(placed.orderId);
      await burner.orders.place(burnParams('100', '6'));
      rig.sim.clearAuction();
      await expectFilled(minter, opened.mirror, ids, placed.orderId);
    }
    expect(opened.stream.stats().resyncs).toBe(0);
  });
});
