import { describe, expect, it } from 'vitest';
import { ticketReuseAt } from '../../../src/simulator/engine/fault-presets.js';
import {
  burnParams,
  clientOf,
  expectFilled,
  issueTicket,
  mintParams,
  mirrorOf,
  type PresetRig,
  startRig,
  until,
  upgrade,
} from './preset-rig.js';

/** Five tickets, each presented at once: the upgrade's status and the ticket. */
async function fiveTickets(r: PresetRig): Promise<Array<{ ticket: string; status: number; body?: string }>> {
  const out: Array<{ ticket: string; status: number; body?: string }> = [];
  for (let i = 0; i < 5; i++) {
    const ticket = await issueTicket(r.url, 'minter');
    const up = await upgrade(r.wsUrl, ticket);
    if ('ws' in up) {
      up.ws.close();
      out.push({ ticket, status: 101 });
    } else out.push({ ticket, status: up.status, body: up.body });
  }
  return out;
}

describe('ticket-reused', () => {
  it('answers one ticket request (seeded) with the ticket before, refused 401 as reused', async () => {
    for (const seed of [1, 2, 3]) {
      const rig = await startRig(['ticket-reused'], seed);
      const answers = await fiveTickets(rig);
      const at = ticketReuseAt(seed);
      expect(at).toBeGreaterThanOrEqual(2);
      expect(at).toBeLessThanOrEqual(4);
      expect(answers.map((a) => a.status)).toEqual([1, 2, 3, 4, 5].map((n) => (n === at ? 401 : 101)));
      const reused = answers[at - 1];
      expect(reused?.ticket).toBe(answers[at - 2]?.ticket);
      expect(reused?.body).toBe(JSON.stringify({ code: 401, message: 'ticket reused' }));
      await rig.close();
    }
    // Seeded: seeds 1, 2 and 3 reuse at different requests (4, 3, 3), each as its seed draws.
    expect([1, 2, 3].map(ticketReuseAt)).toEqual([4, 3, 3]);
  });

  it('keeps the mirror and waitForOutcome exact: the stream asks for a new ticket and connects', async () => {
    const rig = await startRig(['ticket-reused']);
    const [minter, burner] = [clientOf(rig, 'minter'), clientOf(rig, 'burner')];
    const opened = await mirrorOf(minter);
    const opens = () => rig.upgrades().filter((s) => s === 101).length;
    const ids: string[] = [];
    // Each round drops the socket: the stream reconnects with a fresh ticket, once with the reused one.
    for (let round = 1; round <= 4; round++) {
      const placed = await minter.orders.place(mintParams('100', '4'));
      await burner.orders.place(burnParams('100', '6'));
      const before = opens();
      rig.sim.killSockets();
      await until(() => opens() === before + 1, `the stream back, round ${round}`);
      rig.sim.clearAuction();
      await expectFilled(minter, opened.mirror, ids, placed.orderId);
    }
    // The mirror's first ticket, then one per round: the seeded one came back 401 and was replaced.
    expect(rig.upgrades().filter((s) => s === 401)).toHaveLength(1);
  });
});
