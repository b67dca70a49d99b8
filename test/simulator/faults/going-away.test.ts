import { describe, expect, it } from 'vitest';
import {
  burnParams,
  clientOf,
  expectFilled,
  issueTicket,
  mintParams,
  mirrorOf,
  placeOrder,
  startRig,
  subscribeAccount,
  until,
  upgrade,
} from './preset-rig.js';

describe('going-away', () => {
  it("closes every socket 1001 at an auction's first placement, then refuses the next upgrade once", async () => {
    const rig = await startRig(['going-away']);
    const [minter, burner] = [await subscribeAccount(rig, 'minter'), await subscribeAccount(rig, 'burner')];
    const orderId = await placeOrder(rig.url, 'minter', 'MINT');
    // Every socket goes, the burner's too; the minter read its order.accepted before the close.
    expect(await minter.closed).toBe(1001);
    expect(await burner.closed).toBe(1001);
    expect(minter.frames.some((f) => f.event === 'order.accepted' && f.data?.orderId === orderId)).toBe(true);
    const refused = await upgrade(rig.wsUrl, await issueTicket(rig.url, 'minter'));
    expect(refused).toEqual({ status: 401, body: JSON.stringify({ code: 401, message: 'ticket expired' }) });
    // Once: the next ticket connects, and a second placement in the same auction closes nothing.
    const again = await subscribeAccount(rig, 'minter');
    await placeOrder(rig.url, 'minter', 'MINT');
    await again.next((f) => f.event === 'order.accepted' && f.data?.orderId !== orderId);
    expect(again.ws.readyState).toBe(again.ws.OPEN);
    // The next auction's first placement goes away again.
    rig.sim.clearAuction();
    await placeOrder(rig.url, 'burner', 'BURN');
    expect(await again.closed).toBe(1001);
    expect(rig.upgrades()).toEqual([101, 101, 401, 101]);
  });

  it('keeps the mirror and waitForOutcome exact across the close and the refused upgrade', async () => {
    const rig = await startRig(['going-away']);
    const [minter, burner] = [clientOf(rig, 'minter'), clientOf(rig, 'burner')];
    const opened = await mirrorOf(minter);
    const ids: string[] = [];
    for (let round = 1; round <= 3; round++) {
      const placed = await minter.orders.place(mintParams('100', '4'));
      await burner.orders.place(burnParams('100', '6'));
      // The socket went away at the placement; the stream is back after one refusal.
      const opens = () => rig.upgrades().filter((s) => s === 101).length;
      await until(() => opens() === round + 1, `the stream back, round ${round}`);
      rig.sim.clearAuction();
      await expectFilled(minter, opened.mirror, ids, placed.orderId);
      expect(rig.upgrades().filter((s) => s === 401)).toHaveLength(round);
    }
  });
});
